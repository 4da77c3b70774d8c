/**
 * Server errors that a request can never get past (a setting of the server or the model,
 * not a passing failure), each with what to change. Matched on the server's own message.
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
];

/**
 * What to change when a server refused a request for a reason no retry can fix (a tool
 * setting of llama.cpp, Ollama or vLLM), or `undefined`.
 *
 * @example
 * serverSetupHint('tools param requires --jinja flag');
 * // → 'llama.cpp: start llama-server with --jinja, …'
 */
export function serverSetupHint(serverMessage: string): string | undefined {
  return SETUP_FIXES.find(({ pattern }) => pattern.test(serverMessage))?.fix;
}
