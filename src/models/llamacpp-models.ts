import { AgentError } from '../errors/agent-error.js';
import type { DetectedServer } from './detect-server.js';
import type { LocalModel, LocalModels } from './local-models.js';
import { count, isRecord, records, text } from './model-fields.js';
import { pullLlamaCpp } from './llamacpp-pull.js';
import { sortModels } from './sort-models.js';
import type { ModelsRuntime } from './models-runtime.js';

/**
 * `llama-server` with one model (`-m model.gguf`): `GET /v1/models` names it, `GET /props`
 * gives the window (`default_generation_settings.n_ctx`), `modalities.vision` and, in recent
 * builds, `chat_template_caps.supports_tool_calls`. Listing only.
 */
export function llamaCppSingleModels(server: DetectedServer): LocalModels {
  const { http } = server;
  return {
    server: server.identity,
    baseURL: server.baseURL,
    list: async ({ signal } = {}) => {
      const [body, props] = await Promise.all([
        http.json('/v1/models', { signal }),
        http.json('/props', { signal }).catch(() => undefined),
      ]);
      const settings = isRecord(props) ? props.default_generation_settings : undefined;
      const contextLength = count(isRecord(settings) ? settings.n_ctx : undefined);
      const modalities = isRecord(props) ? props.modalities : undefined;
      const caps = isRecord(props) ? props.chat_template_caps : undefined;
      return records(isRecord(body) ? body.data : undefined).flatMap((entry): LocalModel[] => {
        const name = text(entry.id);
        if (name === undefined) return [];
        const meta = isRecord(entry.meta) ? entry.meta : {};
        const size = count(meta.size);
        const trained = count(meta.n_ctx_train);
        return [
          {
            name,
            ...(size === undefined ? {} : { size }),
            loaded: true,
            ...(contextLength === undefined ? {} : { contextLength }),
            ...(trained === undefined ? {} : { maxContextLength: trained }),
            capabilities: {
              ...(isRecord(caps) && typeof caps.supports_tool_calls === 'boolean'
                ? { tools: caps.supports_tool_calls }
                : {}),
              ...(isRecord(modalities) && typeof modalities.vision === 'boolean'
                ? { vision: modalities.vision }
                : {}),
            },
          },
        ];
      });
    },
  };
}

/**
 * `llama-server` in router mode (started without a model): `GET /models` (each with
 * `status.value` `loaded`/`unloaded`/`loading`/`downloading` and `architecture.input_modalities`),
 * `POST /models/load`, `POST /models/unload`, `POST /models` (download from Hugging Face,
 * progress on `GET /models/sse`), `DELETE /models?model=`.
 */
export function llamaCppRouterModels(server: DetectedServer, runtime: ModelsRuntime): LocalModels {
  const { http } = server;
  return {
    server: server.identity,
    baseURL: server.baseURL,
    list: async ({ signal } = {}) => {
      const body = await http.json('/models', { signal });
      return sortModels(
        records(isRecord(body) ? body.data : undefined).flatMap((entry): LocalModel[] => {
          const name = text(entry.id);
          if (name === undefined) return [];
          const status = isRecord(entry.status) ? entry.status : {};
          if (status.value === 'downloading') return [];
          const inputs = isRecord(entry.architecture)
            ? entry.architecture.input_modalities
            : undefined;
          const contextLength = contextArgument(status.args);
          return [
            {
              name,
              loaded: status.value === 'loaded' || status.value === 'sleeping',
              ...(contextLength === undefined ? {} : { contextLength }),
              capabilities: Array.isArray(inputs) ? { vision: inputs.includes('image') } : {},
            },
          ];
        }),
      );
    },
    pull: (name, options = {}) =>
      pullLlamaCpp({ http, name, options, createSSEChunkReader: runtime.createSSEChunkReader }),
    load: async (name, { contextLength, signal } = {}) => {
      if (contextLength !== undefined) {
        throw new AgentError(
          'VALIDATION_FAILED',
          `llama.cpp's router takes a model's context size from its command line (\`llama-server -c ${contextLength}\`) or its preset file (\`c = ${contextLength}\`), not from a load request`,
        );
      }
      await http.json('/models/load', { body: { model: name }, signal });
    },
    unload: async (name, { signal } = {}) => {
      await http.json('/models/unload', { body: { model: name }, signal });
    },
    remove: async (name, { signal } = {}) => {
      await http.json(`/models?model=${encodeURIComponent(name)}`, { method: 'DELETE', signal });
    },
  };
}

/** The `-c` / `--ctx-size` value of a loaded model's command line (`status.args`). */
function contextArgument(args: unknown): number | undefined {
  if (!Array.isArray(args)) return undefined;
  const index = args.findIndex((arg) => arg === '-c' || arg === '--ctx-size' || arg === '-ctx');
  return index < 0 ? undefined : count(Number(args[index + 1]));
}
