// A realistic slow local server for the fakes: a model that loads once, a prompt read at a
// rate, tokens generated at a rate, one slot (a second request queues), headers at once or
// with the first token, and a client that disconnects cancels its work. Every duration is
// multiplied by `timeScale`, so tests and the bench run a 70 s load in a moment.

/**
 * @typedef {object} LatencyProfile
 * @property {number} [loadMs] Model load time, paid by the first request (and after `unload()`).
 * @property {number} [promptTokensPerSecond] Prompt processing rate over the request's estimated tokens (characters / 4).
 * @property {number} [generationTokensPerSecond] Generation rate: the pause before each streamed frame.
 * @property {'at-once' | 'with-first-token'} [headers] When the response headers go out. Default `'with-first-token'`.
 * @property {number} [timeScale] Multiplies every duration. Default 1.
 * @property {boolean} [progress] Stream llama.cpp-style `prompt_progress` chunks while reading the prompt (when the request asks with `return_progress`).
 */

/** The work of one request: when it began, when the server had its first token. */
export class LatencyRecord {
  receivedAt = performance.now();
  /** Milliseconds (real, scaled) from receipt to the first token, as the server saw it. */
  firstTokenMs = /** @type {number | undefined} */ (undefined);
  cancelled = false;
}

/**
 * @param {LatencyProfile} profile
 */
export function createLatency(profile) {
  const scale = profile.timeScale ?? 1;
  let loaded = false;
  /** @type {Promise<void>} */
  let slot = Promise.resolve();
  /** @type {LatencyRecord[]} */
  const records = [];

  /** @param {number} ms @param {AbortSignal} signal */
  const wait = (ms, signal) =>
    new Promise((resolve) => {
      if (ms <= 0 || signal.aborted) return resolve(undefined);
      const timer = setTimeout(resolve, ms * scale);
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve(undefined);
      });
    });

  return {
    records,
    get loaded() {
      return loaded;
    },
    unload() {
      loaded = false;
    },
    /** Milliseconds between generated frames. */
    get frameMs() {
      const rate = profile.generationTokensPerSecond;
      return rate ? (1000 / rate) * scale : 0;
    },
    /**
     * Holds the request until its first token would exist: its turn at the one slot, the model
     * load, the prompt read. Resolves with a `finish()` to call when the response is done, or
     * with `undefined` when the client went away meanwhile (the work is dropped).
     * @param {{ body: any; request: import('node:http').IncomingMessage; response: import('node:http').ServerResponse; headers: Record<string, string>; onProgress?: (progress: { total: number; cache: number; processed: number; time_ms: number }) => void }} call
     */
    async admit({ body, response, headers, onProgress }) {
      const record = new LatencyRecord();
      records.push(record);
      const gone = new AbortController();
      response.on('close', () => {
        if (!response.writableFinished) gone.abort();
      });
      if (profile.headers === 'at-once') {
        response.writeHead(200, headers);
        response.flushHeaders();
      }
      /** @type {() => void} */
      let release = () => undefined;
      const previous = slot;
      slot = new Promise((resolve) => (release = () => resolve(undefined)));
      await previous;
      if (!gone.signal.aborted && !loaded) {
        await wait(profile.loadMs ?? 0, gone.signal);
        if (!gone.signal.aborted) loaded = true;
      }
      const total = Math.ceil(JSON.stringify(body?.messages ?? []).length / 4);
      const rate = profile.promptTokensPerSecond;
      if (rate && !gone.signal.aborted) {
        const started = performance.now();
        const steps = onProgress ? 10 : 1;
        for (let step = 1; step <= steps && !gone.signal.aborted; step++) {
          await wait(((total / rate) * 1000) / steps, gone.signal);
          onProgress?.({
            total,
            cache: 0,
            processed: Math.round((total * step) / steps),
            time_ms: Math.round(performance.now() - started),
          });
        }
      }
      if (gone.signal.aborted) {
        record.cancelled = true;
        release();
        return undefined;
      }
      record.firstTokenMs = performance.now() - record.receivedAt;
      if (!response.headersSent) response.writeHead(200, headers);
      return { finish: release, gone: gone.signal };
    },
  };
}
