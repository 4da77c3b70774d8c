import {
  startFakeOpenAIServer,
  type FakeOpenAIServer,
  type FakeTurn,
  type LatencyProfile,
} from './fake-openai-server.mjs';
import { DEFAULT_SUMMARY_INSTRUCTIONS } from '../../src/context/summarize/summarize-options.js';

/** One chat request the fake received, as JSON. */
export interface ReceivedRequest {
  model?: string;
  max_tokens?: number;
  messages: {
    role: string;
    content: string | null;
    tool_calls?: { id: string }[];
    tool_call_id?: string;
  }[];
  tools?: unknown[];
}

/** The summary fake: a chat model whose turns are rules, and a deterministic summariser. */
export interface SummaryFakeServer {
  server: FakeOpenAIServer;
  /** Requests that were chat turns (not summary calls). */
  chatRequests(): ReceivedRequest[];
  /** Requests that were summary calls. */
  summaryRequests(): ReceivedRequest[];
  /**
   * Answer summary calls with HTTP 500 (true), or with a few words of the summary and then
   * nothing more, the connection left open (`'partway'`: a timeout ends it), or normally (false).
   */
  failSummaries(fail: boolean | 'partway'): void;
  /** Answer chat turns (not summary calls) with HTTP 500 (true), or normally (false). */
  failChats(fail: boolean): void;
  close(): Promise<void>;
}

const isSummaryCall = (request: ReceivedRequest): boolean =>
  request.messages[0]?.role === 'system' &&
  request.messages[0].content === DEFAULT_SUMMARY_INSTRUCTIONS;

/** What a summary call reports as its usage (a chat turn reports none: the client estimates it). */
export const SUMMARY_USAGE = { promptTokens: 900, completionTokens: 12 };

/** What a summary call that fails `'partway'` writes before it stops answering. */
export const PARTIAL_SUMMARY = 'The user asked about subjects one to';

/**
 * Starts the fake. Chat turns: a prompt `Turn N: …` with N divisible by 3 is answered by a
 * `lookup` tool call, then (after its result) by `Answer N: …`; other prompts by `Answer N: …`
 * at once. A summary call is answered `Summary of turns A-B.` — A the first turn it was told
 * of (in the previous summary or the messages), B the last — so a test can read what it covers —
 * with usage {@link SUMMARY_USAGE}. `latency`: the slow server's profile (time-scaled).
 */
export async function startSummaryFakeServer(
  options: { latency?: LatencyProfile } = {},
): Promise<SummaryFakeServer> {
  const server = await startFakeOpenAIServer(options.latency ? { latency: options.latency } : {});
  let fail: boolean | 'partway' = false;
  let failChat = false;
  server.onRequest((body) => {
    const request = body as ReceivedRequest;
    if (isSummaryCall(request)) {
      if (fail === 'partway')
        return { text: PARTIAL_SUMMARY, finishReason: null, done: false, hang: true };
      if (fail) return { status: 500, errorBody: '{"error":{"message":"summary model crashed"}}' };
      const text = String(request.messages[1]?.content ?? '');
      const turns = [...text.matchAll(/Turn (\d+)|turns (\d+)-(\d+)/g)].flatMap((match) =>
        match
          .slice(1)
          .filter((value) => value !== undefined)
          .map(Number),
      );
      return {
        text: `Summary of turns ${Math.min(...turns)}-${Math.max(...turns)}.`,
        usage: SUMMARY_USAGE,
      };
    }
    if (failChat) return { status: 500, errorBody: '{"error":{"message":"chat model crashed"}}' };
    return chatTurn(request);
  });
  return {
    server,
    chatRequests: () =>
      (server.requests as ReceivedRequest[]).filter((request) => !isSummaryCall(request)),
    summaryRequests: () => (server.requests as ReceivedRequest[]).filter(isSummaryCall),
    failSummaries: (value) => {
      fail = value;
    },
    failChats: (value) => {
      failChat = value;
    },
    close: () => server.close(),
  };
}

function chatTurn(request: ReceivedRequest): FakeTurn {
  const last = request.messages.at(-1);
  const prompts = request.messages.filter((message) => message.role === 'user');
  const prompt = String(prompts.at(-1)?.content ?? '');
  const turn = Number(/Turn (\d+)/.exec(prompt)?.[1] ?? 0);
  const filler = 'and that is all there is to say about it for now. '.repeat(2);
  if (last?.role === 'user' && turn % 3 === 0)
    return {
      toolCalls: [{ name: 'lookup', arguments: { topic: `topic ${turn}` }, id: `call_${turn}` }],
    };
  return { text: `Answer ${turn}: ${filler}` };
}
