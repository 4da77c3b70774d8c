import { describe, expect, it } from 'vitest';
import { wllamaBackend } from '../../../src/backend/engines/wllama-backend.js';
import type {
  WllamaInstance,
  WllamaLibrary,
  WllamaLoadParams,
} from '../../../src/backend/engines/wllama-library.js';

/** A fake `@wllama/wllama` that records how the backend asks for its model. */
function recordingLibrary() {
  const calls: { method: string; source: unknown; params: WllamaLoadParams | undefined }[] = [];
  const record =
    (method: string) =>
    (source: unknown, params?: WllamaLoadParams): Promise<void> => {
      calls.push({ method, source, params });
      return Promise.resolve();
    };
  const instance: WllamaInstance = {
    setCompat: () => undefined,
    loadModel: record('loadModel'),
    loadModelFromUrl: record('loadModelFromUrl'),
    createChatCompletion: () => Promise.resolve(undefined),
    getLoadedContextInfo: () => ({ n_ctx: 4096 }),
    exit: () => Promise.resolve(),
  };
  const library: WllamaLibrary = {
    Wllama: class {
      constructor() {
        return instance; // the fake hands out its one recording instance
      }
    } as unknown as WllamaLibrary['Wllama'],
  };
  return { calls, library: () => Promise.resolve(library) };
}

describe('wllamaBackend model sources', () => {
  it("loads a Hugging Face { repo, file } from its resolve URL, so a cached model needs no network (wllama's loadModelFromHF lists the repo through the Hub's API on every load)", async () => {
    const { calls, library } = recordingLibrary();
    const backend = wllamaBackend({
      model: {
        repo: 'bartowski/SmolLM2-135M-Instruct-GGUF',
        file: 'SmolLM2-135M-Instruct-Q4_K_M.gguf',
      },
      library,
      wasm: 'https://app.example/assets/wllama.wasm',
    });
    await backend.load();
    expect(calls.map(({ method, source }) => [method, source])).toEqual([
      [
        'loadModelFromUrl',
        'https://huggingface.co/bartowski/SmolLM2-135M-Instruct-GGUF/resolve/main/SmolLM2-135M-Instruct-Q4_K_M.gguf',
      ],
    ]);
    expect(calls[0]?.params?.useCache).toBe(true);
  });

  it('keeps the folders of a file inside the repo and escapes each part of the path', async () => {
    const { calls, library } = recordingLibrary();
    await wllamaBackend({
      model: { repo: 'someone/Model-GGUF', file: 'Q4 K/model part#1.gguf' },
      library,
      wasm: 'https://app.example/assets/wllama.wasm',
    }).load();
    expect(calls[0]?.source).toBe(
      'https://huggingface.co/someone/Model-GGUF/resolve/main/Q4%20K/model%20part%231.gguf',
    );
  });
});
