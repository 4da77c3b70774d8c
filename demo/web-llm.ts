import { webLLMBackend, type ChatBackend, type WebLLMEngine } from '../src/index.js';

/** Download progress, as WebLLM reports it. */
export interface WebLLMProgress {
  /** 0 to 1. */
  progress: number;
  text: string;
}

/**
 * The models WebLLM (0.2.86) runs tools with — its `functionCallingModelIds`; it refuses
 * `tools` for any other model. About 4–5 GB each, downloaded once into the browser cache.
 */
export const WEB_LLM_MODELS = [
  'Hermes-2-Pro-Mistral-7B-q4f16_1-MLC',
  'Hermes-3-Llama-3.1-8B-q4f16_1-MLC',
  'Hermes-2-Pro-Llama-3-8B-q4f16_1-MLC',
] as const;

/** The part of `@mlc-ai/web-llm` the demo uses (the package is optional, so not typed from it). */
interface WebLLMModule {
  CreateMLCEngine(
    model: string,
    config: { initProgressCallback: (report: WebLLMProgress) => void },
  ): Promise<WebLLMEngine>;
}

/**
 * True when this browser has WebGPU *and* a GPU adapter (WebLLM needs both): `navigator.gpu`
 * exists in Chromium without a usable GPU too, and `requestAdapter()` then resolves `null`.
 */
export async function hasWebGPU(): Promise<boolean> {
  // WebGPU's types are not in this project's DOM lib: only the one call used is declared.
  const gpu = (navigator as { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
  try {
    return gpu !== undefined && (await gpu.requestAdapter()) !== null;
  } catch {
    return false;
  }
}

/**
 * Loads `@mlc-ai/web-llm` on demand, downloads `model` into the browser cache (reporting
 * progress) and returns it as a backend for `<agent-chat>` — the same `backend` option a
 * server-less app would use. Rejects with a message a user can act on: no WebGPU, package
 * not installed, download failed.
 */
export async function loadWebLLM(
  model: string,
  onProgress: (progress: WebLLMProgress) => void,
): Promise<ChatBackend> {
  if (!(await hasWebGPU()))
    throw new Error(
      'This browser has no usable WebGPU adapter, which WebLLM needs (try a recent Chrome or Edge on a machine with a GPU).',
    );
  const { load } = await import('virtual:web-llm');
  const module = await load();
  if (!isWebLLM(module))
    throw new Error(
      '@mlc-ai/web-llm loaded, but it has no CreateMLCEngine: is it a supported version?',
    );
  const engine = await module.CreateMLCEngine(model, { initProgressCallback: onProgress });
  // How WebLLM runs tools (forced JSON calls, no system prompt beside tools, no abort signal)
  // is the library's business: the same adapter an app uses.
  return webLLMBackend(engine);
}

function isWebLLM(value: unknown): value is WebLLMModule {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { CreateMLCEngine?: unknown }).CreateMLCEngine === 'function'
  );
}
