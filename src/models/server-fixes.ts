import type { ServerKind } from './local-models.js';

/** How to make a model's tool calls come back as `tool_calls` on each server. */
export function nativeToolsFix(kind: ServerKind, model: string): string {
  switch (kind) {
    case 'ollama':
      return `The model's template in Ollama has no tool support: use a model whose page lists "tools" (\`ollama pull qwen3:4b\`), or a newer build of ${model} with a tool-aware template.`;
    case 'lmstudio':
      return 'Use a model LM Studio marks "trained for tool use", or update its llama.cpp runtime (LM Studio parses most tool formats).';
    case 'llama.cpp':
      return "Start llama-server with `--jinja` (it then parses the model's tool calls into `tool_calls`), and a tool-aware template if the GGUF lacks one (`--chat-template-file`).";
    case 'vllm':
      return 'Start vLLM with `--enable-auto-tool-choice --tool-call-parser <parser>` (hermes for Qwen, llama3_json for Llama 3.x, mistral for Mistral).';
    case 'openai-compatible':
      return "Turn on the server's tool-call parsing for this model, or use a model trained for tool calling.";
  }
}

/** How to get a model that calls tools at all. */
export function toolModelFix(kind: ServerKind): string {
  const pull = kind === 'ollama' ? ' (`ollama pull qwen3:4b`)' : '';
  return `Use a model trained for tool calling — Qwen3, Llama 3.1+, Mistral Small 3, Granite 3+${pull}.${kind === 'llama.cpp' ? ' Start llama-server with `--jinja`.' : ''}${kind === 'vllm' ? ' Start vLLM with `--enable-auto-tool-choice --tool-call-parser hermes`.' : ''}`;
}

/** How to serve a model with a longer window. */
export function contextFix(kind: ServerKind, model: string, wanted: number): string {
  switch (kind) {
    case 'ollama':
      return `Start Ollama with \`OLLAMA_CONTEXT_LENGTH=${wanted}\`, or load the model with a longer window: \`localModels(…).load('${model}', { contextLength: ${wanted} })\` (Ollama's \`num_ctx\`).`;
    case 'lmstudio':
      return `Load the model with a longer context length (\`lms load ${model} --context-length ${wanted}\`, or \`load('${model}', { contextLength: ${wanted} })\`).`;
    case 'llama.cpp':
      return `Start llama-server with \`-c ${wanted}\`.`;
    case 'vllm':
      return `Start vLLM with \`--max-model-len ${wanted}\`.`;
    case 'openai-compatible':
      return "Serve the model with a longer context window (see the server's settings).";
  }
}

/** How to get a model onto the server. */
export function getModelFix(
  kind: ServerKind,
  model: string | undefined,
  listed: readonly string[],
): string {
  const have =
    listed.length > 0
      ? ` It has: ${listed.slice(0, 8).join(', ')}${listed.length > 8 ? ', …' : ''}.`
      : '';
  switch (kind) {
    case 'ollama':
      return `Pull it: \`ollama pull ${model ?? 'qwen3:4b'}\` (or \`localModels(…).pull('${model ?? 'qwen3:4b'}')\`).${have}`;
    case 'lmstudio':
      return `Download it in LM Studio (\`lms get ${model ?? 'qwen/qwen3-4b-2507'}\`).${have}`;
    case 'llama.cpp':
      return `Start llama-server with it (\`-m model.gguf\`, or \`-hf <user>/<repo>\`), or in router mode add it to \`--models-dir\`.${have}`;
    case 'vllm':
      return `vLLM serves one model: start it with \`vllm serve ${model ?? '<model>'}\`.${have}`;
    case 'openai-compatible':
      return `Use a model the server lists.${have}`;
  }
}
