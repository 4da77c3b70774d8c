import type * as SummaryDividers from './summary-dividers.js';

let dividers: typeof SummaryDividers | undefined;
let loading: Promise<typeof SummaryDividers> | undefined;

/** The summary dividers' module once loaded (see summary-dividers.ts), else `undefined`. */
export function summaryDividers(): typeof SummaryDividers | undefined {
  return dividers;
}

/** Loads the summary dividers; a failed load is forgotten, so the next call tries again. */
export function loadSummaryDividers(): Promise<typeof SummaryDividers> {
  loading ??= import('./summary-dividers.js').then(
    (module) => (dividers = module),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
