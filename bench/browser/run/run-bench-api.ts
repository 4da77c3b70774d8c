/** What bench/browser/run/run-page.ts puts on `window.runBench` for the Playwright runner. */
export interface RunBenchApi {
  /**
   * Every loop of `loops` run once (checked) on `scenario` against this page's origin, then
   * `rounds` rounds in which each loop runs once, in an order rotated every round (a minor GC
   * before each run when the page has `gc`): wall ms per loop per round, each run checked. A
   * loop whose checked run took over 3 s has that one sample and sits the rounds out.
   */
  paired(options: {
    loops: readonly string[];
    scenario: string;
    rounds: number;
  }): Promise<Record<string, { wallMs: number[] }>>;
}

declare global {
  interface Window {
    runBench?: RunBenchApi;
  }
}
