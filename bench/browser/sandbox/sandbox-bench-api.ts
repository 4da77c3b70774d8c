/** What bench/browser/sandbox/sandbox-page.ts puts on `window.sandboxBench` for the Playwright runner. */
export interface SandboxBenchApi {
  /**
   * Milliseconds of the first `javascriptTool().execute` after page load: spawning the
   * worker, fetching and compiling the engine, a fresh context, the run, the answer.
   */
  firstRun(): Promise<number>;
  /** Milliseconds per later call of a small snippet on the same tool, in call order (after warm-ups). */
  roundTrips(calls: number): Promise<number[]>;
}

declare global {
  interface Window {
    sandboxBench?: SandboxBenchApi;
  }
}
