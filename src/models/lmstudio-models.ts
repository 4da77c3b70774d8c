import { AgentError } from '../errors/agent-error.js';
import type { DetectedServer } from './detect-server.js';
import type { LocalModel, LocalModels } from './local-models.js';
import { count, isRecord, records, text } from './model-fields.js';
import { droppedPull, retryingPull } from './retrying-pull.js';
import { sortModels } from './sort-models.js';

/** How often a download job is asked about: under the 500 ms a progress bar is promised. */
const POLL_MS = 250;

/**
 * LM Studio 0.4+'s v1 REST API: `GET /api/v1/models` (every model on disk, with
 * `loaded_instances[].config.context_length`, `max_context_length`, `capabilities`), `POST
 * /api/v1/models/load` (`config.context_length`), `POST /api/v1/models/unload` (by
 * `instance_id`), `POST /api/v1/models/download` (a job, polled at
 * `/api/v1/models/download/status/:job_id`). It has no delete: `remove` is absent.
 */
export function lmStudioV1Models(server: DetectedServer): LocalModels {
  const { http } = server;
  const fetchList = async (signal: AbortSignal | undefined) => {
    const body = await http.json('/api/v1/models', { signal });
    return records(isRecord(body) ? body.models : undefined).filter(
      (entry) => entry.type !== 'embedding',
    );
  };
  return {
    server: server.identity,
    baseURL: server.baseURL,
    list: async ({ signal } = {}) =>
      sortModels(
        (await fetchList(signal)).flatMap((entry): LocalModel[] => {
          const name = text(entry.key);
          if (name === undefined) return [];
          const instances = records(entry.loaded_instances);
          const config = instances[0]?.config;
          const contextLength = count(isRecord(config) ? config.context_length : undefined);
          const maxContextLength = count(entry.max_context_length);
          const size = count(entry.size_bytes);
          const capabilities = isRecord(entry.capabilities) ? entry.capabilities : {};
          return [
            {
              name,
              ...(size === undefined ? {} : { size }),
              loaded: instances.length > 0,
              ...(contextLength === undefined ? {} : { contextLength }),
              ...(maxContextLength === undefined ? {} : { maxContextLength }),
              capabilities: {
                ...(typeof capabilities.trained_for_tool_use === 'boolean'
                  ? { tools: capabilities.trained_for_tool_use }
                  : {}),
                ...(typeof capabilities.vision === 'boolean'
                  ? { vision: capabilities.vision }
                  : {}),
              },
            },
          ];
        }),
      ),
    pull: (name, options = {}) =>
      retryingPull(options, async (reporter, signal) => {
        let job = await http.json('/api/v1/models/download', { body: { model: name }, signal });
        const id = isRecord(job) ? text(job.job_id) : undefined;
        for (;;) {
          const state = isRecord(job) ? job : {};
          const status = text(state.status) ?? '';
          if (status === 'completed' || status === 'already_downloaded')
            return reporter.finish(status);
          if (status === 'failed')
            throw new AgentError('STREAM_ERROR', `LM Studio could not download "${name}"`);
          const total = count(state.total_size_bytes);
          reporter.update({
            status,
            completed: count(state.downloaded_bytes) ?? 0,
            ...(total === undefined ? {} : { total }),
            ...(typeof state.bytes_per_second === 'number'
              ? { bytesPerSecond: Math.round(state.bytes_per_second) }
              : {}),
          });
          if (id === undefined) throw droppedPull(name);
          await sleep(POLL_MS, signal);
          job = await http.json(`/api/v1/models/download/status/${encodeURIComponent(id)}`, {
            signal,
          });
        }
      }),
    load: async (name, { contextLength, signal } = {}) => {
      await http.json('/api/v1/models/load', {
        body: {
          model: name,
          ...(contextLength === undefined ? {} : { config: { context_length: contextLength } }),
        },
        signal,
      });
    },
    unload: async (name, { signal } = {}) => {
      const entry = (await fetchList(signal)).find((model) => model.key === name);
      for (const instance of records(entry?.loaded_instances)) {
        await http.json('/api/v1/models/unload', { body: { instance_id: instance.id }, signal });
      }
    },
  };
}

/**
 * LM Studio 0.3.6+'s v0 REST API: `GET /api/v0/models` (`state`, `type` `llm`/`vlm`,
 * `max_context_length`, `loaded_context_length`). Listing only: v0 has no load or download.
 */
export function lmStudioV0Models(server: DetectedServer): LocalModels {
  const { http } = server;
  return {
    server: server.identity,
    baseURL: server.baseURL,
    list: async ({ signal } = {}) => {
      const body = await http.json('/api/v0/models', { signal });
      return sortModels(
        records(isRecord(body) ? body.data : undefined).flatMap((entry): LocalModel[] => {
          const name = text(entry.id);
          if (name === undefined || (entry.type !== 'llm' && entry.type !== 'vlm')) return [];
          const contextLength = count(entry.loaded_context_length);
          const maxContextLength = count(entry.max_context_length);
          return [
            {
              name,
              loaded: entry.state === 'loaded',
              ...(contextLength === undefined ? {} : { contextLength }),
              ...(maxContextLength === undefined ? {} : { maxContextLength }),
              capabilities: {
                vision: entry.type === 'vlm',
                // 0.3.16+ lists `capabilities: ["tool_use"]` for models trained for it.
                ...(Array.isArray(entry.capabilities)
                  ? { tools: entry.capabilities.includes('tool_use') }
                  : {}),
              },
            },
          ];
        }),
      );
    },
  };
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      signal?.removeEventListener('abort', stop);
      resolve();
    }
    function stop(): void {
      clearTimeout(timer);
      reject(new AgentError('EXECUTION_CANCELLED', 'Cancelled'));
    }
    signal?.addEventListener('abort', stop, { once: true });
  });
}
