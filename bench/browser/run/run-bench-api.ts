/** What bench/browser/run/run-page.ts puts on `window.runBench` for the Playwright runner. */
export interface RunBenchApi {
  /** One checked run of `loop` on `scenario` against this page's origin, then `repeat` timed runs (wall ms each; fewer when they take more than 3 s in all, and only the checked one when it alone took that long). */
  cell(options: { loop: string; scenario: string; repeat: number }): Promise<{ wallMs: number[] }>;
}

declare global {
  interface Window {
    runBench?: RunBenchApi;
  }
}
