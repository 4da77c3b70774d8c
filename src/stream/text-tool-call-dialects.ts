import type { TextToolCallDialects } from './dialects/text-tool-call-dialect.js';

export type { TextToolCallDialects } from './dialects/text-tool-call-dialect.js';

let loading: Promise<TextToolCallDialects> | undefined;

/**
 * Every text-form dialect (Hermes, Qwen3-Coder, Mistral, Llama, DeepSeek, Gemma, Granite,
 * functools) and the reader that finds them, loaded once, on first use: the loop asks for
 * them when the agent has tools, while the request is on its way, so a page without tools
 * never downloads them.
 */
export function loadTextToolCallDialects(): TextToolCallDialects | Promise<TextToolCallDialects> {
  return (
    loaded ??
    (loading ??= import('./dialects/index.js').then((module) => (loaded = module.ALL_DIALECTS)))
  );
}

/** The dialects once loaded: later model calls take them without awaiting. */
let loaded: TextToolCallDialects | undefined;
