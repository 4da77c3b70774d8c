import type { DetectedServer } from './detect-server.js';
import type { LocalModel, LocalModels } from './local-models.js';
import { count, isRecord, records, text } from './model-fields.js';
import { sortModels } from './sort-models.js';

/**
 * vLLM (one model per server, loaded while it runs; `max_model_len` in `GET /v1/models`) and
 * any other OpenAI-compatible server (`GET /v1/models`, ids only: whether a model is loaded is
 * not known). Listing only: neither has an API to download or load.
 */
export function openAIModels(server: DetectedServer): LocalModels {
  const { http, identity } = server;
  const modelsPath = `${server.baseURL.slice(http.root.length)}/models`;
  return {
    server: identity,
    baseURL: server.baseURL,
    list: async ({ signal } = {}) => {
      const body = await http.json(modelsPath, { signal });
      return sortModels(
        records(isRecord(body) ? body.data : undefined).flatMap((entry): LocalModel[] => {
          const name = text(entry.id);
          if (name === undefined) return [];
          const window = count(entry.max_model_len);
          return [
            {
              name,
              ...(identity.kind === 'vllm' ? { loaded: true } : {}),
              ...(window === undefined ? {} : { contextLength: window, maxContextLength: window }),
              capabilities: {},
            },
          ];
        }),
      );
    },
  };
}
