import { AgentError, errorMessage, isAgentError } from '../../errors/agent-error.js';
import type { ChatRequest, WaitReport } from '../../types/chat-request.js';
import type { ContextSummary } from '../../types/context-summary.js';
import type { AgentEvent } from '../../types/events.js';
import type { Message } from '../../types/message.js';
import type { Usage } from '../../types/usage.js';
import type { LoopContext } from '../../loop/loop-context.js';
import type { AgentOptions } from '../../loop/agent-options.js';
import type { FittedRequest, fitRequest } from '../context-manager.js';
import { estimateMessageTokens } from '../fit-messages.js';
import { summaryCall } from './summary-call.js';
import { summaryFingerprint, summariesFor } from './summary-fingerprint.js';
import {
  summarizeSettings,
  type SummarizePolicy,
  type SummarizeSettings,
} from './summarize-options.js';

/** The summary's share of the prompt's room, and its ceiling in tokens. */
const SUMMARY_SHARE = 0.2;
const SUMMARY_MAX_TOKENS = 1_024;

/** What the model step hears of a summary call: its wait reports, and what it cost. */
export interface SummaryCallListeners {
  /** The transport's wait reports (phase `'summarizing'`): the loop yields `waiting` from them. */
  onWaiting?: ((report: WaitReport) => void) | undefined;
  /** The summary call's usage (also of one that failed once the server answered), to count in the run's and the client's. */
  onUsage?: ((usage: Usage) => void) | undefined;
}

/** After a failed summary call: the number of user prompts then; no new try before the next one. */
const failedAt = new WeakMap<object, number>();

/**
 * `contextPolicy: 'summarize'` before a model call: the request with the conversation's summary
 * (the newest that applies to this branch) in place of the messages it covers; when that would
 * still pass the threshold, first one model call folds the oldest turns into a new summary,
 * stored with `context.write`. Yields `context_compacted` whenever a summary is sent. A
 * failed or too slow summary call is reported (`onError`) and the request is fitted like
 * `'drop-oldest'` (its `trimmed` event then says what was left out). `listeners` hear the
 * summary call's wait (so a slow server's is announced) and its usage.
 * @throws AgentError `EXECUTION_CANCELLED` on abort; what fitting throws (`CONTEXT_OVERFLOW`).
 */
export async function* compactRequest(
  context: LoopContext,
  request: ChatRequest,
  fit: typeof fitRequest,
  listeners: SummaryCallListeners = {},
): AsyncGenerator<AgentEvent, FittedRequest> {
  const policy = context.options.contextPolicy as 'summarize' | SummarizePolicy; // model-step checked
  const settings = summarizeSettings(policy);
  const options: AgentOptions = { ...context.options, contextPolicy: 'drop-oldest' };
  const stored = context.state.messages;
  const active = summariesFor(stored, context.state.summaries ?? []).at(-1);
  const fitWith = async (summary: ContextSummary | undefined) =>
    fit(options, context.backend, withSummary(request, stored, summary), context.signal);
  let fitted = await fitWith(active);
  const { budget, askedTokens, scale } = fitted.room;
  const cut =
    askedTokens > settings.threshold * budget
      ? cutPoint(stored, active?.covers ?? 0, settings.keepRecent * budget, scale)
      : undefined;
  let summary = active;
  if (cut !== undefined && failedAt.get(context.state) !== userCount(stored)) {
    try {
      summary = await newSummary(
        context,
        settings,
        active,
        cut,
        Math.floor(budget * SUMMARY_SHARE),
        listeners,
      );
      failedAt.delete(context.state);
      fitted = await fitWith(summary);
    } catch (error) {
      if (isAgentError(error, 'EXECUTION_CANCELLED')) throw error;
      failedAt.set(context.state, userCount(stored));
      context.report(fallback(cut - (active?.covers ?? 0), error));
    }
  }
  if (summary) {
    yield {
      type: 'context_compacted',
      summarizedMessages: summary.covers,
      promptTokens: fitted.promptTokens,
      contextWindow: fitted.contextWindow,
    };
  }
  return fitted;
}

async function newSummary(
  context: LoopContext,
  settings: SummarizeSettings,
  previous: ContextSummary | undefined,
  cut: number,
  room: number,
  listeners: SummaryCallListeners,
): Promise<ContextSummary> {
  const stored = context.state.messages;
  const model = settings.model ?? context.options.model;
  const text = await summaryCall({
    backend: settings.backend ?? context.backend,
    model,
    settings,
    previous: previous?.text,
    messages: stored.slice(previous?.covers ?? 0, cut),
    maxTokens: Math.max(64, Math.min(SUMMARY_MAX_TOKENS, room)),
    signal: context.signal,
    onWaiting: listeners.onWaiting,
    onUsage: listeners.onUsage,
  });
  const summary: ContextSummary = {
    text,
    covers: cut,
    fingerprint: summaryFingerprint(stored, cut),
    createdAt: Date.now(),
    model,
  };
  context.state.summaries = [...(context.state.summaries ?? []), summary];
  // Stored beside the messages it covers (stores without `addSummary` keep none).
  const copy = structuredClone(summary);
  context.write?.(
    (store, conversationId) => store.addSummary?.(conversationId, copy) ?? Promise.resolve(),
  );
  return summary;
}

/**
 * Where the kept part starts: the earliest user message after `from` from which the rest fits
 * `keep` tokens — a turn boundary, so no tool call is parted from its result — and never past
 * the last user message (the current turn is kept whole). `undefined`: nothing to summarise.
 */
function cutPoint(
  messages: readonly Message[],
  from: number,
  keep: number,
  scale: number,
): number | undefined {
  let tokens = 0;
  let cut: number | undefined;
  let last: number | undefined;
  for (let index = messages.length - 1; index > from; index -= 1) {
    const message = messages[index] as Message;
    tokens += estimateMessageTokens(message) * scale;
    if (message.role !== 'user') continue;
    last ??= index;
    if (tokens <= keep) cut = index;
    else break;
  }
  return cut ?? last;
}

const summaryMessages = new WeakMap<ContextSummary, { system: string; message: Message }>();

/**
 * `request` with `summary` in place of the messages it covers: in the system message (a user
 * message would put two in a row, which Mistral and Gemma templates refuse). The summary's
 * message is one object per summary, so fitting reuses its count from call to call.
 */
function withSummary(
  request: ChatRequest,
  stored: readonly Message[],
  summary: ContextSummary | undefined,
): ChatRequest {
  if (!summary) return request;
  // A cut is at a user message, which reaches the request as the same object.
  const start = request.messages.indexOf(stored[summary.covers] as Message);
  if (start < 0) return request;
  const first = request.messages[0];
  const system = first?.role === 'system' ? first.content : '';
  let cached = summaryMessages.get(summary);
  if (cached?.system !== system) {
    const content =
      `${system === '' ? '' : `${system}\n\n`}Summary of the earlier conversation ` +
      `(its first ${summary.covers} messages, not repeated below):\n${summary.text}`;
    cached = { system, message: { role: 'system', content } };
    summaryMessages.set(summary, cached);
  }
  return { ...request, messages: [cached.message, ...request.messages.slice(start)] };
}

function userCount(messages: readonly Message[]): number {
  let count = 0;
  for (const message of messages) if (message.role === 'user') count += 1;
  return count;
}

function fallback(messages: number, error: unknown): AgentError {
  const code = isAgentError(error) ? error.code : 'NETWORK_ERROR';
  return new AgentError(
    code,
    `Summarising ${messages} earlier messages failed (${errorMessage(error)}); they were left out of the request instead, as with contextPolicy 'drop-oldest'. The next prompt tries again — check the summary model's server, or raise timeoutMs.`,
    { cause: error, context: { contextPolicy: 'summarize' } },
  );
}
