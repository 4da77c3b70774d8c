import { detectServer } from './detect-server.js';
import { llamaCppRouterModels, llamaCppSingleModels } from './llamacpp-models.js';
import { lmStudioV0Models, lmStudioV1Models } from './lmstudio-models.js';
import type { LocalModels, LocalModelsOptions } from './local-models.js';
import type { ModelsRuntime } from './models-runtime.js';
import { ollamaModels } from './ollama-models.js';
import { openAIModels } from './openai-models.js';

/** `localModels`' body, loaded on its first call: detect the server, then its model API. */
export async function openLocalModels(
  options: LocalModelsOptions,
  runtime: ModelsRuntime,
): Promise<LocalModels> {
  const server = await detectServer(options);
  const { kind } = server.identity;
  switch (kind) {
    case 'ollama':
      return ollamaModels(server);
    case 'lmstudio':
      return server.identity.variant === 'v1' ? lmStudioV1Models(server) : lmStudioV0Models(server);
    case 'llama.cpp':
      return server.identity.variant === 'router'
        ? llamaCppRouterModels(server, runtime)
        : llamaCppSingleModels(server);
    case 'vllm':
    case 'openai-compatible':
      return openAIModels(server);
    default: {
      const unknown: never = kind;
      throw new Error(`Unknown server kind ${String(unknown)}`);
    }
  }
}
