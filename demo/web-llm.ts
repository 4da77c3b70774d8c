import type { ChatBackend, ChatRequest } from '../src/index.js';

/** Download progress, as WebLLM reports it. */
export interface WebLLMProgress {
  /** 0 to 1. */
  progress: number;
  text: string;
}

/** Small models WebLLM can run; the Hermes ones were trained for tool calls. */
export const WEB_LLM_MODELS = [
  'Hermes-3-Llama-3.2-3B-q4f16_1-MLC',
  'Hermes-2-Pro-Llama-3-8B-q4f16_1-MLC',
  'Qwen2.5-1.5B-Instruct-q4f16_1-MLC',
] as const;

/** The part of `@mlc-ai/web-llm` the demo uses (the package is optional, so not typed from it). */
interface WebLLMModule {
  CreateMLCEngine(model: string, config: { initProgressCallback: (report: WebLLMProgress) => void }): Promise<MLCEngine>;
}

interface MLCEngine {
  chat: { completions: { create(request: ChatRequest): Promise<AsyncIterable<unknown>> } };
  interruptGenerate(): void;
}

/** True when this browser has WebGPU (WebLLM needs it). */
export function hasWebGPU(): boolean {
  return 'gpu' in navigator;
}

/**
 * Loads `@mlc-ai/web-llm` on demand, downloads `model` into the browser cache (reporting
 * progress) and returns it as a backend for `<agent-chat>` — the same `backend` option a
 * server-less app would use. Rejects with a message a user can act on: no WebGPU, package
 * not installed, download failed.
 */
export async function loadWebLLM(model: string, onProgress: (progress: WebLLMProgress) => void): Promise<ChatBackend> {
  if (!hasWebGPU()) throw new Error('This browser has no WebGPU, which WebLLM needs (try a recent Chrome or Edge).');
  const { load } = await import('virtual:web-llm');
  const module = await load();
  if (!isWebLLM(module)) throw new Error('@mlc-ai/web-llm loaded, but it has no CreateMLCEngine: is it a supported version?');
  const engine = await module.CreateMLCEngine(model, { initProgressCallback: onProgress });
  return {
    chat: {
      completions: {
        create(request, options = {}) {
          // WebLLM takes no AbortSignal: a stop interrupts the generation instead.
          options.signal?.addEventListener('abort', () => engine.interruptGenerate(), { once: true });
          return engine.chat.completions.create(request);
        },
      },
    },
  };
}

function isWebLLM(value: unknown): value is WebLLMModule {
  return typeof value === 'object' && value !== null && typeof (value as { CreateMLCEngine?: unknown }).CreateMLCEngine === 'function';
}
