import { isRecord, records, text } from './model-fields.js';

/** What the raw chunks of one streamed response show, beyond what the aggregator keeps. */
export interface ChunkFacts {
  /** `delta.tool_calls` arrived. */
  nativeCalls: boolean;
  /** Distinct call indexes in `delta.tool_calls`. */
  nativeCallCount: number;
  /** Every native call carried an `id`. */
  ids: boolean;
  /** Some call's arguments came in more than one non-empty piece. */
  streamedArguments: boolean;
  /** Where reasoning came: `reasoning_content`, `reasoning`, or `<think>` tags in `content`. */
  reasoning: 'reasoning_content' | 'reasoning' | 'think tags' | undefined;
  /** A chunk carried `usage` with a prompt token count. */
  usage: { promptTokens: number; completionTokens: number } | undefined;
  /** All `content` joined. */
  content: string;
}

/** Reads {@link ChunkFacts} from OpenAI-format chunks. */
export function chunkFacts(chunks: readonly unknown[]): ChunkFacts {
  const calls = new Map<number, { id: boolean; pieces: number }>();
  let reasoning: ChunkFacts['reasoning'];
  let usage: ChunkFacts['usage'];
  let content = '';
  for (const chunk of chunks) {
    if (!isRecord(chunk)) continue;
    if (isRecord(chunk.usage) && typeof chunk.usage.prompt_tokens === 'number') {
      usage = {
        promptTokens: chunk.usage.prompt_tokens,
        completionTokens:
          typeof chunk.usage.completion_tokens === 'number' ? chunk.usage.completion_tokens : 0,
      };
    }
    for (const choice of records(chunk.choices)) {
      const delta = isRecord(choice.delta)
        ? choice.delta
        : isRecord(choice.message)
          ? choice.message
          : {};
      if (text(delta.reasoning_content) !== undefined) reasoning ??= 'reasoning_content';
      if (text(delta.reasoning) !== undefined) reasoning ??= 'reasoning';
      if (typeof delta.content === 'string') content += delta.content;
      for (const call of records(delta.tool_calls)) {
        const index = typeof call.index === 'number' ? call.index : calls.size;
        const entry = calls.get(index) ?? { id: false, pieces: 0 };
        if (text(call.id) !== undefined) entry.id = true;
        const fn = isRecord(call.function) ? call.function : {};
        if (text(fn.arguments) !== undefined) entry.pieces++;
        calls.set(index, entry);
      }
    }
  }
  if (reasoning === undefined && /<think>|<\/think>/.test(content)) reasoning = 'think tags';
  return {
    nativeCalls: calls.size > 0,
    nativeCallCount: calls.size,
    ids: calls.size > 0 && [...calls.values()].every((call) => call.id),
    streamedArguments: [...calls.values()].some((call) => call.pieces > 1),
    reasoning,
    usage,
    content,
  };
}

/** The markers of tool calls written as text, and the dialect each opens. */
const DIALECT_MARKERS: readonly [RegExp, string][] = [
  [/<tool_call>/, 'Hermes `<tool_call>` tags'],
  [/<function=/, 'Qwen3-Coder `<function=…>` markup'],
  [/\[TOOL_CALLS\]/, 'Mistral `[TOOL_CALLS]`'],
  [/<\|python_tag\|>/, 'Llama `<|python_tag|>`'],
  [/<｜tool▁calls▁begin｜>|<｜tool▁call▁begin｜>/, 'DeepSeek tool-call tokens'],
  [/<\|tool_call\|>/, 'Granite `<|tool_call|>`'],
  [/```tool_code/, 'Gemma `tool_code` block'],
  [/```/, 'JSON in a code fence'],
];

/** Which text form the calls in `content` were written in. */
export function textDialect(content: string): string {
  return DIALECT_MARKERS.find(([marker]) => marker.test(content))?.[1] ?? 'bare JSON';
}
