import type { QuickJSContext } from 'quickjs-emscripten-core';
import { engineFetch, type EngineFetchRun } from './engine-fetch.js';
import { engineStringLength } from './engine-text.js';
import type { HostFunctions } from './install-prelude.js';
import type { SandboxOutput } from './sandbox-output.js';
import type { SandboxTimers } from './sandbox-timers.js';

/**
 * The worker's side of one run's prelude host (see `PreludeHost`): the code's console
 * output into `output`, its timers into `timers`, and, with `fetch` (the app granted
 * origins), the granted `fetch`.
 *
 * @example
 * const exports = installPrelude(context, sandboxHost({ context, output, timers, fetch: undefined }), own);
 */
export function sandboxHost(run: {
  context: QuickJSContext;
  output: SandboxOutput;
  timers: SandboxTimers;
  fetch: EngineFetchRun | undefined;
}): HostFunctions {
  const { context, output, timers, fetch } = run;
  return {
    write: (_level, text, length) => {
      if (!text || context.typeof(text) !== 'string') return;
      const size = engineStringLength(context, text);
      const full = length && context.typeof(length) === 'number' ? context.getNumber(length) : size;
      output.write(size, Number.isFinite(full) ? full : size, () => context.getString(text));
    },
    room: () => context.newNumber(output.room),
    schedule: (id, delay) => {
      const key = id ? context.getNumber(id) : NaN;
      if (!Number.isSafeInteger(key)) return;
      timers.schedule(key, delay ? context.getNumber(delay) : 0);
    },
    cancel: (id) => {
      if (id) timers.cancel(context.getNumber(id));
    },
    ...(fetch
      ? {
          fetch: (url, method, headers, body) => engineFetch(fetch, { url, method, headers, body }),
        }
      : {}),
  };
}
