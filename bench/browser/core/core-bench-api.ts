/** What bench/browser/core/core-page.ts puts on `window.coreBench` for the Playwright runner. */
export interface CoreBenchApi {
  /** `calls` sequential calls to an instant worker tool, and to a bare postMessage echo worker. */
  workerRoundTrip(calls: number): Promise<WorkerRoundTrip>;
  /** Append and load times of `indexedDBHistory`, see {@link IndexedDBTimes}. */
  indexedDB(options: { appends: number; loads: number }): Promise<IndexedDBTimes>;
}

export interface WorkerRoundTrip {
  /** Milliseconds per `workerTool(...).execute` call, in call order. */
  toolMs: number[];
  /** Milliseconds per bare `postMessage` → echo → `message` round trip (the floor). */
  rawMs: number[];
  /** True when timers are precise (5 µs) rather than coarsened to 100 µs. */
  crossOriginIsolated: boolean;
}

export interface IndexedDBTimes {
  /** Milliseconds per single-message append to a conversation of about 100 messages. */
  appendAt100Ms: number[];
  /** Milliseconds per single-message append to a conversation of about 10,000 messages. */
  appendAt10kMs: number[];
  /** Milliseconds to load the 10,000-message conversation, each from a fresh store instance. */
  loadMs: number[];
  /** Messages the loads returned (10,000 expected). */
  loadedCount: number;
  /** Milliseconds it took to write the 10,000 messages in batches (setup, for context). */
  fillMs: number;
}

declare global {
  interface Window {
    coreBench?: CoreBenchApi;
  }
}
