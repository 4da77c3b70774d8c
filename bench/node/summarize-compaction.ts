import { scriptedBackend } from '../../src/backend/scripted-backend.js';
import { fitRequest } from '../../src/context/context-manager.js';
import { compactRequest } from '../../src/context/summarize/compact-request.js';
import { DEFAULT_SUMMARY_INSTRUCTIONS } from '../../src/context/summarize/summarize-options.js';
import { summaryFingerprint } from '../../src/context/summarize/summary-fingerprint.js';
import { Client } from '../../src/loop/client.js';
import type { LoopContext } from '../../src/loop/loop-context.js';
import type { ChatRequest } from '../../src/types/chat-request.js';
import type { AgentEvent } from '../../src/types/events.js';
import { checked, info, type Figure } from '../support/figure.js';
import { timeFits, toolConversation, type FitTimes } from '../support/fit-loop.js';

const isSummaryCall = (request: ChatRequest): boolean =>
  request.messages[0]?.role === 'system' &&
  request.messages[0].content === DEFAULT_SUMMARY_INSTRUCTIONS;

/** A 40-turn conversation on a 2,048-token window: summary calls, and the compactions they made. */
async function callsPerCrossing(): Promise<{
  summaryCalls: number;
  crossings: number;
  chatCalls: number;
}> {
  const backend = scriptedBackend([], {
    respond: (request) =>
      isSummaryCall(request)
        ? {
            text: `Summary ${request.messages.length}: the user asked about many subjects, one per turn.`,
          }
        : { text: `Answer: ${'and that is all there is to say about it for now. '.repeat(2)}` },
  });
  const client = new Client({
    model: 'm',
    backend,
    contextWindow: 2048,
    maxTokens: 256,
    contextPolicy: 'summarize',
  });
  for (let turn = 1; turn <= 40; turn += 1) {
    for await (const _event of client.run(
      `Turn ${turn}: tell me about subject ${turn}, ${'with words to fill the window. '.repeat(4)}`,
    ))
      void _event;
  }
  const summaryCalls = backend.requests.filter(isSummaryCall).length;
  return {
    summaryCalls,
    crossings: client.summaries.length,
    chatCalls: backend.requests.length - summaryCalls,
  };
}

/** Milliseconds 'summarize' takes before a call at 1,000 messages with a summary in place (no new summary). */
async function fitWithSummary(count: number): Promise<FitTimes> {
  const messages = toolConversation(count);
  const covers = count - 200;
  const backend = scriptedBackend([]);
  const options = {
    model: 'm',
    backend,
    contextWindow: 32_768,
    maxTokens: 4096,
    contextPolicy: 'summarize' as const,
  };
  const state = {
    messages,
    round: null,
    iterationCount: 0,
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    finishReason: null,
    modelCallDue: true,
    summaries: [
      {
        text: 'Earlier: many topics were looked up.',
        covers,
        fingerprint: summaryFingerprint(messages, covers),
        createdAt: 0,
      },
    ],
  };
  const errors: unknown[] = [];
  const context = {
    options,
    backend,
    state,
    signal: undefined,
    report: (error: unknown) => errors.push(error),
    append: () => undefined,
  } as unknown as LoopContext;
  const request = (): ChatRequest => ({
    model: 'm',
    messages: [{ role: 'system', content: 'Be brief.' }, ...messages],
    stream: true,
    max_tokens: 4096,
  });
  // The first call checks the summary's fingerprint and counts every message (cold).
  return timeFits(messages, request, async (next) => {
    const steps = compactRequest(context, next, fitRequest);
    let step = await steps.next();
    const events: AgentEvent[] = [];
    while (step.done !== true) {
      events.push(step.value);
      step = await steps.next();
    }
    if (!events.some((event) => event.type === 'context_compacted') || errors.length > 0)
      throw new Error('the summary was not sent');
    return step.value.request.messages.length;
  });
}

/** contextPolicy: 'summarize': model calls per compaction, and its cost before every request. */
export async function summarizeFigures(): Promise<Figure[]> {
  const { summaryCalls, crossings, chatCalls } = await callsPerCrossing();
  const { warmMs, sent, repeat } = await fitWithSummary(1000);
  return [
    checked({
      id: 'summarize.calls-per-crossing',
      label: 'summarize: summary calls per threshold crossing (40 turns, 2k window)',
      value: crossings === 0 ? Infinity : Number((summaryCalls / crossings).toFixed(2)),
      unit: 'calls',
      target: { op: '<=', limit: 1 },
      note: `${summaryCalls} summary calls for ${crossings} compactions beside ${chatCalls} chat calls (scriptedBackend)`,
    }),
    checked({
      id: 'summarize.fit.1000',
      label: 'summarize: fit 1,000 messages with a summary in place, per request',
      value: Number(warmMs.toFixed(3)),
      unit: 'ms',
      target: { op: '<', limit: 1 },
      note: `compactRequest (fingerprint check, summary substituted, fitRequest) to a 32,768-token window, ${sent} messages sent; median of ${repeat} calls, each after one more message`,
    }),
    info({
      id: 'summarize.chat-calls',
      label: 'summarize: chat calls in the 40-turn run',
      value: chatCalls,
      unit: 'calls',
    }),
  ];
}
