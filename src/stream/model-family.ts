/** A model family whose own markup the stream reader knows. */
export type ModelFamily =
  | 'apertus'
  | 'deepseek'
  | 'gemma'
  | 'glm'
  | 'granite'
  | 'kimi'
  | 'lfm2'
  | 'llama'
  | 'minimax'
  | 'mistral'
  | 'phi'
  | 'qwen'
  | 'seed-oss';

/** Name patterns, first match wins (`qwen3-coder` is Qwen; `deepseek-r1-distill-qwen` is DeepSeek). */
const FAMILIES: readonly [RegExp, ModelFamily][] = [
  [/deepseek/i, 'deepseek'],
  [/seed[-_]?oss/i, 'seed-oss'],
  [/apertus/i, 'apertus'],
  [/kimi|moonshot/i, 'kimi'],
  [/minimax/i, 'minimax'],
  [/\blfm[-_]?2/i, 'lfm2'],
  [/glm/i, 'glm'],
  [/gemma/i, 'gemma'],
  [/granite/i, 'granite'],
  [/phi[-_]?4/i, 'phi'],
  [/mistral|magistral|devstral|ministral/i, 'mistral'],
  [/qwen|qwq/i, 'qwen'],
  [/llama/i, 'llama'],
];

/**
 * The family a model name (`qwen3.5-35b-a3b`, `unsloth/GLM-4.7-GGUF`, `gemma-4-e4b-it`)
 * belongs to, or `undefined`.
 *
 * @example
 * modelFamily('Qwen/Qwen3-Coder-Next'); // 'qwen'
 */
export function modelFamily(model: string): ModelFamily | undefined {
  return FAMILIES.find(([pattern]) => pattern.test(model))?.[1];
}

/**
 * Models whose chat template ends the prompt with `<think>`, so their output opens
 * mid-thought and holds only the closing `</think>`: QwQ, Qwen3 / 3.5 / 3.6 thinking models
 * (not Coder or Instruct-2507), DeepSeek R1, V3.1 and V3.2, MiniMax M2, GLM-4.7 and GLM-5
 * (`<think>` unless the request turns thinking off; vLLM's `glm47_moe` parser starts in
 * reasoning). Not GLM-4.5 / 4.6 (the model opens `<think>` itself) nor Apertus (it thinks
 * only when asked: its template's `<|inner_prefix|>` is read from the server instead).
 */
const STARTS_IN_REASONING =
  /\bqwq|qwen3(?!.*(?:coder|instruct))|deepseek[-_]?r1|deepseek[-_]?v3\.[12]|minimax[-_]?m2|glm[-_]?(?:4\.7|5)(?!\d)/i;

/**
 * Whether a model of this name starts its output mid-thought (see {@link STARTS_IN_REASONING}).
 *
 * @example
 * startsInReasoning('qwen3-4b-thinking-2507'); // true
 */
export function startsInReasoning(model: string): boolean {
  return STARTS_IN_REASONING.test(model);
}
