import type * as MessageRow from './message-row.js';

let row: typeof MessageRow | undefined;
let loading: Promise<typeof MessageRow> | undefined;

/** The message row's module once loaded (see message-row.ts), else `undefined`. */
export function messageRow(): typeof MessageRow | undefined {
  return row;
}

/** Loads the message row; a failed load is forgotten, so the next call tries again. */
export function loadMessageRow(): Promise<typeof MessageRow> {
  loading ??= import('./message-row.js').then(
    (module) => (row = module),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}
