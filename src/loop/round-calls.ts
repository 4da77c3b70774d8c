import { AgentError } from '../errors/agent-error.js';
import type { AgentEvent } from '../types/events.js';
import type { ContentPart } from '../types/message.js';
import type { RoundCall, ToolRound } from './conversation-state.js';
import type { LoopContext } from './loop-context.js';
import type { AgentOptions } from './agent-options.js';

// What both halves of the loop do to a round's calls: the first load opens and commits rounds,
// tool-execution.ts and branching.ts (loaded by `import()`) settle and cancel calls too. Kept
// apart from tool-round.ts, which imports the backend: a lazy module importing tool-round.ts
// would split the backend off the first load into a chunk of its own with esbuild
// (test/size/first-load-files.test.ts).

/** A tool call as the round handles it. */
export type Call = { toolUseId: string; name: string; input: Record<string, unknown> };

/** Settles a call with an error the model will read. */
export function failedCall(call: Call, error: AgentError, announced = false): RoundCall {
  return {
    ...call,
    status: 'settled',
    content: error.message,
    isError: true,
    code: error.code,
    announced,
  };
}

/**
 * Answers every call of the round that has no result yet with `EXECUTION_CANCELLED`, so
 * the round can be committed (an abort, or a new prompt while calls were pending).
 */
export function cancelUnsettled(
  round: ToolRound,
  reason: (call: RoundCall) => string,
  announced = false,
): void {
  round.calls = round.calls.map((call) =>
    call.status === 'settled'
      ? call
      : failedCall(call, new AgentError('EXECUTION_CANCELLED', reason(call)), announced),
  );
}

/** Yields the events of settled calls not yet announced, in call order. */
export function* announceSettled(round: ToolRound): Generator<AgentEvent> {
  for (const call of round.calls) {
    if (call.status !== 'settled' || call.announced) continue;
    call.announced = true;
    if (call.isError && call.code) {
      yield {
        type: 'tool_use_error',
        code: call.code,
        error: resultText(call.content),
        toolUseId: call.toolUseId,
        name: call.name,
      };
    } else {
      yield {
        type: 'tool_result',
        toolUseId: call.toolUseId,
        name: call.name,
        content: call.content,
        isError: call.isError,
      };
    }
  }
}

/**
 * Moves a fully settled round into history — one tool message per call, in call order —
 * and counts it as a round of tools done.
 */
export function commitRound(
  context: Pick<LoopContext, 'state' | 'append'> & {
    options?: Pick<AgentOptions, 'maxToolResultCharacters'>;
  },
): void {
  const max = context.options?.maxToolResultCharacters ?? DEFAULT_MAX_TOOL_RESULT_CHARACTERS;
  const round = context.state.round;
  if (!round) return;
  context.state.round = null;
  context.state.iterationCount += 1;
  context.append(
    ...round.calls.map((call) => {
      const isError = call.status !== 'settled' || call.isError;
      // Hot path: per call. A string result within `max` (the usual one) costs no call.
      const content = call.status === 'settled' ? call.content : 'Error: no result';
      let text = typeof content === 'string' ? content : resultText(content);
      if (text.length > max)
        text = `${text.slice(0, max)}\n[… truncated: the tool returned ${text.length.toLocaleString('en')} characters; the first ${max.toLocaleString('en')} are shown]`;
      return {
        role: 'tool' as const,
        tool_call_id: call.toolUseId,
        name: call.name,
        // Images (an MCP tool's, say) stay content parts (checked by hasImageParts when
        // settled): the request shows them to the model.
        content:
          call.status === 'settled' && call.images
            ? (call.content as ContentPart[])
            : isError && !text.startsWith('Error')
              ? `Error: ${text}`
              : text,
        ...(call.status === 'settled' && call.durationMs !== undefined
          ? { durationMs: call.durationMs }
          : {}),
      };
    }),
  );
}

/** Tool results go to the model as text: strings as they are, everything else as JSON. */
export function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (content === undefined) return '';
  try {
    const json = JSON.stringify(content) as string | undefined; // undefined for functions/symbols
    if (json !== undefined) return json;
  } catch {
    // circular or BigInt: fall through
  }
  return `[a ${typeof content} that cannot be sent as JSON]`;
}

// The bounds on what one model response can make the loop do and store (issue 27).

/**
 * Most tool calls of one model response that run (`AgentOptions.maxToolCallsPerResponse`): the
 * others get an error result the model reads (`TOOL_DENIED`). A model looping on one call, or an
 * injected page asking for hundreds, cannot flood the page with tools. 32 is more than any real
 * model's parallel calls we have recorded (Qwen3 and GPT-4o: up to 10).
 */
export const DEFAULT_MAX_TOOL_CALLS_PER_RESPONSE = 32;

/**
 * Longest tool result, in characters, that history keeps and requests send
 * (`AgentOptions.maxToolResultCharacters`): a longer one is cut, with a marker saying how much was
 * left out. About 25,000 tokens, beyond most local models' context windows anyway. The
 * `tool_result` event still carries the whole value, for a UI that wants it.
 */
export const DEFAULT_MAX_TOOL_RESULT_CHARACTERS = 100_000;
