import { AgentError } from '../errors/agent-error.js';
import type { ChatBackend, ChatRequest } from '../types/chat-request.js';

/** One tool call a scripted turn makes. */
export interface ScriptedToolCall {
  name: string;
  /** The arguments as an object (sent as JSON)… */
  input?: Record<string, unknown>;
  /** …or as the exact string the model "wrote" (to script malformed arguments). */
  arguments?: string;
  id?: string;
}

/** One scripted model response. Every field is optional; an empty turn is an empty answer. */
export interface ScriptedTurn {
  /** Answer text: a string is streamed word by word, an array delta by delta. */
  text?: string | readonly string[];
  /** Reasoning, streamed before the text (as `delta.reasoning_content`). */
  reasoning?: string | readonly string[];
  toolCalls?: readonly ScriptedToolCall[];
  /** Default: `tool_calls` when there are calls, else `stop`. */
  finishReason?: string;
  /** Reported usage; `null` sends none (the loop then estimates). Default: none. */
  usage?: { promptTokens: number; completionTokens: number } | null;
  /** Thrown after the content streamed (an `AgentError` keeps its code, e.g. `HTTP_ERROR`). */
  error?: Error;
  /** Thrown before anything streams (a failed request). */
  failRequest?: Error;
  /** After the content, wait until the request is aborted (to script a stalled server). */
  hang?: boolean;
  /** Milliseconds to wait before each delta. */
  delayMs?: number;
  /** Exact chunk objects to stream instead of the fields above. */
  chunks?: readonly unknown[];
}

/** A turn, or a function of the request that returns one (to answer by rules). */
export type ScriptedResponse =
  ScriptedTurn | ((request: ChatRequest, callIndex: number) => ScriptedTurn);

/** A {@link ChatBackend} that replays scripted turns and records every request. */
export interface ScriptedBackend extends ChatBackend {
  /** Deep copies of every request received, in order. */
  readonly requests: ChatRequest[];
  /** Scripted turns not yet used. */
  readonly remaining: number;
}

/**
 * A deterministic backend: each model call replays the next scripted turn as real
 * chat-completion chunks (so they go through the same aggregator as a server's).
 * With `respond`, turns are computed per request once the script runs out — the demo
 * model answers by rules this way. A call with nothing scripted fails loudly.
 *
 * @example
 * const backend = scriptedBackend([
 *   { toolCalls: [{ name: 'add', input: { a: 2, b: 3 } }] },
 *   { text: 'The sum is 5.' },
 * ]);
 * const client = new Client({ model: 'scripted', backend, tools: [add], autoExecuteTools: true });
 */
export function scriptedBackend(
  turns: readonly ScriptedResponse[],
  options: { respond?: (request: ChatRequest, callIndex: number) => ScriptedTurn } = {},
): ScriptedBackend {
  const queue = [...turns];
  const requests: ChatRequest[] = [];
  let callIds = 0;
  const nextCallId = () => `call${String(callIds++).padStart(5, '0')}`;
  return {
    requests,
    get remaining() {
      return queue.length;
    },
    chat: {
      completions: {
        create(request, createOptions = {}) {
          const callIndex = requests.length;
          requests.push(structuredClone(request));
          const next = queue.shift();
          let turn: ScriptedTurn;
          if (next !== undefined)
            turn = typeof next === 'function' ? next(request, callIndex) : next;
          else if (options.respond) turn = options.respond(request, callIndex);
          else {
            throw new Error(
              `scriptedBackend: no turn scripted for request #${callIndex + 1} (${turns.length} scripted)`,
            );
          }
          if (turn.failRequest) throw turn.failRequest;
          return replay({ turn, model: request.model, signal: createOptions.signal, nextCallId });
        },
      },
    },
  };
}

async function* replay({
  turn,
  model,
  signal,
  nextCallId,
}: {
  turn: ScriptedTurn;
  model: string;
  signal: AbortSignal | undefined;
  nextCallId: () => string;
}): AsyncGenerator<unknown> {
  let sequence = 0;
  const chunk = (
    delta: Record<string, unknown>,
    finishReason: string | null = null,
    extra = {},
  ) => ({
    id: `chatcmpl-scripted-${sequence++}`,
    object: 'chat.completion.chunk',
    model,
    choices: [{ index: 0, delta, finish_reason: finishReason }],
    ...extra,
  });
  const chunks: unknown[] = turn.chunks
    ? [...turn.chunks]
    : [chunk({ role: 'assistant', content: '' })];
  if (!turn.chunks) {
    for (const piece of deltas(turn.reasoning)) chunks.push(chunk({ reasoning_content: piece }));
    for (const piece of deltas(turn.text)) chunks.push(chunk({ content: piece }));
    (turn.toolCalls ?? []).forEach((call, index) => {
      const id = call.id ?? nextCallId();
      const args = call.arguments ?? JSON.stringify(call.input ?? {});
      chunks.push(
        chunk({
          tool_calls: [
            { index, id, type: 'function', function: { name: call.name, arguments: args } },
          ],
        }),
      );
    });
    const finishReason =
      turn.finishReason ?? ((turn.toolCalls?.length ?? 0) > 0 ? 'tool_calls' : 'stop');
    const usage = turn.usage
      ? {
          usage: {
            prompt_tokens: turn.usage.promptTokens,
            completion_tokens: turn.usage.completionTokens,
            total_tokens: turn.usage.promptTokens + turn.usage.completionTokens,
          },
        }
      : {};
    if (!turn.error) chunks.push(chunk({}, finishReason, usage));
  }
  for (const item of chunks) {
    if (turn.delayMs !== undefined) await sleep(turn.delayMs, signal);
    throwIfAborted(signal);
    yield item;
  }
  if (turn.error) throw turn.error;
  if (turn.hang) await sleep(Number.POSITIVE_INFINITY, signal);
}

function deltas(value: string | readonly string[] | undefined): readonly string[] {
  if (value === undefined) return [];
  if (typeof value !== 'string') return value;
  return value.match(/\S+\s*|\s+/g) ?? [];
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AgentError('EXECUTION_CANCELLED', 'The request was aborted');
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    throwIfAborted(signal);
    const timer = Number.isFinite(ms) ? setTimeout(done, ms) : undefined;
    function done() {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }
    function onAbort() {
      clearTimeout(timer);
      reject(new AgentError('EXECUTION_CANCELLED', 'The request was aborted'));
    }
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
