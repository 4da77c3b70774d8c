/**
 * Server errors that a request can never get past (a setting of the server or the model,
 * or a conversation grown past the context — not a passing failure), each with what to
 * change. Matched on the server's own message.
 */
const SETUP_FIXES: readonly { pattern: RegExp; fix: string }[] = [
  {
    // llama.cpp llama-server without --jinja: 500 "tools param requires --jinja flag";
    // older builds: 500 "Unsupported param: tools".
    pattern: /tools param requires --jinja|unsupported param: tools/i,
    fix: 'llama.cpp: start llama-server with --jinja, which renders tools with the model’s chat template and reads its calls.',
  },
  {
    // Ollama, /v1 and /api/chat: 400 "<model> does not support tools" — the model's
    // template declares no tool support.
    pattern: /does not support tools/i,
    fix: 'Ollama: this model’s template has no tool support. Pick a model built for tools (qwen3, llama3.1, mistral-nemo…), or run the agent without tools.',
  },
  {
    // vLLM without tool parsing: 400 `"auto" tool choice requires --enable-auto-tool-choice
    // and --tool-call-parser to be set`.
    pattern: /tool choice requires --enable-auto-tool-choice/i,
    fix: 'vLLM: start it with --enable-auto-tool-choice --tool-call-parser <the parser for the model, e.g. hermes for Qwen>.',
  },
  {
    // llama.cpp: 400 "request (4390 tokens) exceeds the available context size (4096
    // tokens), try increasing it", older 400/500 "the request exceeds the available context
    // size. try increasing the context size or enable context shift", and a 500 "Context
    // size has been exceeded." mid-generation.
    pattern: /exceeds the available context size|context size has been exceeded/i,
    fix: 'llama.cpp: the conversation no longer fits the context llama-server was started with: raise --ctx-size (-c), lower maxTokens, or start a new conversation.',
  },
  {
    // vLLM (and OpenAI's wording): 400 "This model's maximum context length is 8192 tokens.
    // However, you requested 9000 tokens (4904 in the messages, 4096 in the completion)…"
    pattern: /maximum context length is \d+ tokens/i,
    fix: 'The conversation plus maxTokens (the room kept for the answer) no longer fits the model’s context: lower maxTokens, start a new conversation, or (vLLM) raise --max-model-len.',
  },
  {
    // A model that takes no images, sent one. llama.cpp: 500 "image input is not supported -
    // hint: if this is unexpected, you may need to provide the mmproj" (older: "… by this
    // server"); LM Studio: "Model does not support images. Please use a model that does.";
    // Ollama: 500 "this model is missing data required for image input" (older builds) or
    // "… does not support vision"; vLLM: "… is not a multimodal model".
    pattern:
      /image input is not supported|does not support (images|vision)|missing data required for image input|not a multimodal model/i,
    fix: 'This model takes no images: pick a vision model (Ollama: gemma3, qwen2.5vl, llava…; LM Studio: one with a vision adapter), start llama-server with --mmproj, or send text only.',
  },
];

/**
 * What to change when a server refused a request for a reason no retry can fix (a tool
 * setting of llama.cpp, Ollama or vLLM, a conversation longer than the context), or
 * `undefined`.
 *
 * @example
 * serverSetupHint('tools param requires --jinja flag');
 * // → 'llama.cpp: start llama-server with --jinja, …'
 */
export function serverSetupHint(serverMessage: string): string | undefined {
  return SETUP_FIXES.find(({ pattern }) => pattern.test(serverMessage))?.fix;
}
