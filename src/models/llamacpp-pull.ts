import { AgentError } from '../errors/agent-error.js';
import type { PullOptions } from './local-models.js';
import { count, isRecord, text } from './model-fields.js';
import { droppedPull, retryingPull } from './retrying-pull.js';
import type { PullReporter } from './pull-reporter.js';
import type { ServerHttp } from './server-http.js';
import type { ModelsRuntime } from './models-runtime.js';

/**
 * llama.cpp router's download: subscribe to `GET /models/sse` first (so no event is missed),
 * then `POST /models {model}`; `download_progress` events carry `{ <file url>: { done, total } }`
 * (files download in parallel: summed), then `download_finished` or `download_failed`. A
 * cancel sends `POST /models/unload`, which is how this API stops a download.
 */
export function pullLlamaCpp({
  http,
  name,
  options,
  createSSEChunkReader,
}: {
  http: ServerHttp;
  name: string;
  options: PullOptions;
  createSSEChunkReader: ModelsRuntime['createSSEChunkReader'];
}): Promise<void> {
  return retryingPull(options, async (reporter, signal) => {
    const events = await http.open('/models/sse', { signal });
    try {
      await http.json('/models', { body: { model: name }, signal });
      await follow(events, name, reporter, createSSEChunkReader(`${http.root}/models/sse`));
    } catch (error) {
      if (signal?.aborted === true)
        await http.json('/models/unload', { body: { model: name } }).catch(() => undefined);
      throw error;
    } finally {
      await events.body?.cancel().catch(() => undefined);
    }
  });
}

async function follow(
  response: Response,
  name: string,
  reporter: PullReporter,
  sse: ReturnType<ModelsRuntime['createSSEChunkReader']>,
): Promise<void> {
  const body = response.body;
  if (!body) throw droppedPull(name);
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const files = new Map<string, { done: number; total: number }>();
  try {
    for (;;) {
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader.read();
      } catch (error) {
        throw new AgentError(
          'NETWORK_ERROR',
          `The download of "${name}" lost its progress stream`,
          { cause: error },
        );
      }
      if (result.done) throw droppedPull(name);
      const events: unknown[] = [];
      sse.push(decoder.decode(result.value, { stream: true }), events);
      for (const event of events) {
        if (!isRecord(event) || event.model !== name) continue;
        if (event.event === 'download_finished') return reporter.finish();
        if (event.event === 'download_failed') {
          const data = isRecord(event.data) ? event.data : {};
          throw new AgentError(
            'STREAM_ERROR',
            `llama.cpp could not download "${name}"${text(data.error) ? `: ${text(data.error)}` : ''}`,
          );
        }
        if (event.event === 'download_progress' && isRecord(event.data)) {
          for (const [file, progress] of Object.entries(event.data)) {
            if (isRecord(progress))
              files.set(file, {
                done: count(progress.done) ?? 0,
                total: count(progress.total) ?? 0,
              });
          }
          let done = 0;
          let total = 0;
          for (const file of files.values()) {
            done += file.done;
            total += file.total;
          }
          reporter.update({
            status: 'downloading',
            completed: done,
            ...(total > 0 ? { total } : {}),
          });
        }
      }
    }
  } finally {
    reader.releaseLock();
  }
}
