import type { AgentEvent } from '../types/events.js';
import type { ServerCheck } from './check-server.js';
import { firstLine } from './first-line.js';
import { chunkFacts, textDialect, type ChunkFacts } from './chunk-facts.js';
import { probeBackend, recordingBackend, type ProbeContext } from './generation-probe.js';
import { nativeToolsFix, toolModelFix } from './server-fixes.js';

const TOOL_TOKENS = 256;

const weather = (tool: ProbeContext['runtime']['tool']) =>
  tool({
    name: 'get_weather',
    description: 'The current weather in a city.',
    input: {
      type: 'object',
      properties: { city: { type: 'string', description: 'The city name' } },
      required: ['city'],
    },
  });

/**
 * Asks for two tool calls at once through the runtime's own path (`query()`: transport,
 * aggregator and text-dialect recovery) while a copy of the raw chunks shows what the server
 * did itself: native `tool_calls` or calls written as text, ids, arguments in pieces or whole.
 * One generation of at most 256 tokens.
 */
export async function checkTools(
  context: ProbeContext,
): Promise<{ checks: ServerCheck[]; facts: ChunkFacts | undefined }> {
  const seen: unknown[] = [];
  const events: AgentEvent[] = [];
  context.spend(TOOL_TOKENS);
  try {
    for await (const event of context.runtime.query(
      'What is the weather in Paris and in Tokyo right now? Call get_weather once for each city, both calls in this one answer.',
      {
        model: context.model,
        backend: recordingBackend(probeBackend(context), seen),
        tools: [weather(context.runtime.tool)],
        maxTokens: TOOL_TOKENS,
        temperature: 0,
        ...(context.signal ? { signal: context.signal } : {}),
      },
    )) {
      events.push(event);
    }
  } catch (error) {
    return {
      checks: [
        {
          id: 'tool-calls',
          status: 'fail',
          detail: `A request with a tool failed: ${firstLine(error)}`,
          fix: nativeToolsFix(context.kind, context.model),
        },
      ],
      facts: undefined,
    };
  }
  const facts = chunkFacts(seen);
  const calls = events.filter((event) => event.type === 'tool_use');
  const claimed =
    context.capabilities.tools === true ? ' (the server lists "tools" for this model)' : '';
  if (calls.length === 0) {
    const denied =
      context.capabilities.tools === false
        ? ' (the server does not list tool support for this model)'
        : claimed;
    return {
      checks: [
        {
          id: 'tool-calls',
          status: 'fail',
          detail: `Asked to call get_weather, the model answered in prose${denied}: "${clip(facts.content)}"`,
          fix: toolModelFix(context.kind),
        },
      ],
      facts,
    };
  }
  if (!facts.nativeCalls) {
    // A dialect the text reader names on the event (when it does), else the markup seen.
    const named = calls
      .map((call) => (call as { dialect?: unknown }).dialect)
      .find((value): value is string => typeof value === 'string');
    return {
      checks: [
        {
          id: 'tool-calls',
          status: 'warn',
          detail: `The calls came back as text${claimed}, written as ${named ?? textDialect(facts.content)}; open-agent recovered ${calls.length} of them, but the server's own tool parsing did not run (no streamed tool_calls, and other clients will see text).`,
          fix: nativeToolsFix(context.kind, context.model),
        },
        parallel(calls.length),
      ],
      facts,
    };
  }
  return {
    checks: [
      {
        id: 'tool-calls',
        status: 'pass',
        detail: `Native tool_calls in the stream (${facts.nativeCallCount} call${facts.nativeCallCount === 1 ? '' : 's'}).`,
      },
      facts.ids
        ? { id: 'tool-call-ids', status: 'pass', detail: 'Every call has an id.' }
        : {
            id: 'tool-call-ids',
            status: 'warn',
            detail:
              'Calls came without ids: open-agent gives them its own, but other clients may mismatch results.',
            fix: 'Update the server; nothing to do in open-agent.',
          },
      facts.streamedArguments
        ? {
            id: 'tool-arguments',
            status: 'pass',
            detail: 'Arguments stream in pieces: a UI shows them as they arrive.',
          }
        : {
            id: 'tool-arguments',
            status: 'pass',
            detail:
              'Arguments arrive whole, in one chunk per call (no live preview while the model writes them).',
          },
      parallel(calls.length),
    ],
    facts,
  };
}

function parallel(count: number): ServerCheck {
  return count >= 2
    ? {
        id: 'parallel-tool-calls',
        status: 'pass',
        detail: `${count} calls in one answer: parallel calls work.`,
      }
    : {
        id: 'parallel-tool-calls',
        status: 'warn',
        detail: 'One call per answer: each tool round takes a model call of its own.',
        fix: 'A model trained for parallel calls (Qwen3, Llama 3.1+) makes several at once; nothing to change in open-agent.',
      };
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
}
