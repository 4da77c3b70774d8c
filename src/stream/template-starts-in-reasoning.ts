/**
 * The open and close tags of reasoning-tags.ts's `REASONING_TAGS`, copied: the context
 * window's probe (a lazy chunk of its own) reads templates, and importing the list would
 * make a chunk shared with the aggregator's. A test keeps the copy equal to the list.
 */
export const TEMPLATE_TAGS: readonly (readonly [open: string, close: string])[] = [
  ['<think>', '</think>'],
  ['<seed:think>', '</seed:think>'],
  ['[THINK]', '[/THINK]'],
  ['<|channel>thought', '<channel|>'],
  ['<|inner_prefix|>', '<|inner_suffix|>'],
];

/**
 * Whether a chat template ends the prompt inside a thought — its generation prompt (what
 * follows the last `add_generation_prompt`) opens a reasoning tag
 * ({@link TEMPLATE_TAGS}) and does not close it after: GLM-4.7 / 5 (`'<think>'` unless thinking is turned off),
 * Qwen3 thinking models, DeepSeek R1, MiniMax M2, an Apertus template that opens
 * `<|inner_prefix|>`. A template that closes what it opens (Qwen3's and GLM-4.5's empty
 * block when thinking is off) or opens nothing: `false`. No generation prompt: `undefined`.
 * Read from llama.cpp's `/props` `chat_template` (see probe-context-window.ts); a branch
 * taken only when the request asks for thinking counts as open (the hold it causes is
 * bounded, and a server that splits the thought itself drops it at its first reasoning delta).
 *
 * @example
 * templateStartsInReasoning("{% if add_generation_prompt %}{{'<｜Assistant｜><think>\\n'}}{% endif %}"); // true
 */
export function templateStartsInReasoning(template: string): boolean | undefined {
  const at = template.lastIndexOf('add_generation_prompt');
  if (at === -1) return undefined;
  const tail = template.slice(at);
  let open = -1;
  let close = '';
  for (const [opening, closing] of TEMPLATE_TAGS) {
    const index = tail.lastIndexOf(opening);
    if (index > open) {
      open = index;
      close = closing;
    }
  }
  return open !== -1 && !tail.includes(close, open);
}
