import type { LocalModel, LocalModels, ModelCapabilities } from './local-models.js';
import type { DetectedServer } from './detect-server.js';
import { count, isRecord, records, text } from './model-fields.js';
import { pullOllama } from './ollama-pull.js';
import { sortModels } from './sort-models.js';

/**
 * Ollama's model API: `GET /api/tags` (on disk, with sizes), `GET /api/ps` (loaded, with the
 * window each is loaded with), `POST /api/show` (capabilities, the trained window), `POST
 * /api/pull` (NDJSON progress), an empty `POST /api/generate` to load (`keep_alive: 0` to
 * unload), `DELETE /api/delete`.
 */
export function ollamaModels(server: DetectedServer): LocalModels {
  const { http } = server;
  return {
    server: server.identity,
    baseURL: server.baseURL,
    list: async ({ signal } = {}) => {
      const [tags, ps] = await Promise.all([
        http.json('/api/tags', { signal }),
        http.json('/api/ps', { signal }),
      ]);
      const loaded = new Map(
        records(isRecord(ps) ? ps.models : undefined).map((entry) => [
          text(entry.name) ?? text(entry.model),
          entry,
        ]),
      );
      const models = await Promise.all(
        records(isRecord(tags) ? tags.models : undefined).map(
          async (entry): Promise<LocalModel | undefined> => {
            const name = text(entry.name) ?? text(entry.model);
            if (name === undefined) return undefined;
            const running = loaded.get(name);
            const show = await http
              .json('/api/show', { body: { model: name }, signal })
              .catch(() => undefined);
            const size = count(entry.size);
            const contextLength = count(running?.context_length);
            const maxContextLength = trainedWindow(show);
            return {
              name,
              ...(size === undefined ? {} : { size }),
              loaded: running !== undefined,
              ...(contextLength === undefined ? {} : { contextLength }),
              ...(maxContextLength === undefined ? {} : { maxContextLength }),
              capabilities: capabilities(show),
            };
          },
        ),
      );
      return sortModels(models.filter((model) => model !== undefined));
    },
    pull: (name, options = {}) => pullOllama(http, name, options),
    load: async (name, { contextLength, signal } = {}) => {
      await http.json('/api/generate', {
        body: {
          model: name,
          stream: false,
          ...(contextLength === undefined ? {} : { options: { num_ctx: contextLength } }),
        },
        signal,
      });
    },
    unload: async (name, { signal } = {}) => {
      await http.json('/api/generate', {
        body: { model: name, stream: false, keep_alive: 0 },
        signal,
      });
    },
    remove: async (name, { signal } = {}) => {
      await http.json('/api/delete', { method: 'DELETE', body: { model: name }, signal });
    },
  };
}

/** `model_info.<architecture>.context_length` of `/api/show`. */
function trainedWindow(show: unknown): number | undefined {
  const info = isRecord(show) ? show.model_info : undefined;
  if (!isRecord(info)) return undefined;
  for (const [key, value] of Object.entries(info))
    if (key.endsWith('.context_length')) return count(value);
  return undefined;
}

/** Ollama 0.6.4+ lists `capabilities` (`completion`, `tools`, `vision`, `thinking`, `embedding`…). */
function capabilities(show: unknown): ModelCapabilities {
  const list = isRecord(show) ? show.capabilities : undefined;
  if (!Array.isArray(list)) return {};
  return {
    tools: list.includes('tools'),
    vision: list.includes('vision'),
    thinking: list.includes('thinking'),
  };
}
