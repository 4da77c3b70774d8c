import type { AgentEvent, Waiting } from '../types/events.js';
import type { WaitReport } from '../types/chat-request.js';
import type { PhaseStep } from './agent-loop.js';

/** When and how often a wait is announced; injectable so tests need not wait. */
export interface WaitClock {
  /** Milliseconds without a token before the first `waiting` event. Default 250. */
  firstAfterMs: number;
  /**
   * And at least this long after the request went out (the backend's first report): an answer
   * that starts at once yields none, however long the call took to prepare. Default 100.
   */
  afterRequestMs: number;
  /** Milliseconds between later `waiting` events. Default 1,000. */
  everyMs: number;
  now: () => number;
}

/** The clock of {@link announceWaiting} unless a test gives one. */
export const WAIT_CLOCK: WaitClock = {
  firstAfterMs: 250,
  afterRequestMs: 100,
  everyMs: 1_000,
  now: () => Date.now(),
};

/** What the transport said about the wait so far (see `WaitReport`), kept current by the model step. */
export class WaitStatus {
  phase: Waiting['phase'] = 'waiting';
  progress: number | undefined;
  model: string | undefined;
  /** When the backend first said a request is out; a backend that never reports yields no `waiting`. */
  reportedAt: number | undefined;
  /** Resolves at the first report. */
  readonly firstReport: Promise<void>;
  readonly #reported: () => void;

  constructor(private readonly now: () => number = WAIT_CLOCK.now) {
    let resolve!: () => void;
    this.firstReport = new Promise((settle) => (resolve = settle));
    this.#reported = resolve;
  }

  /** Takes what the transport reports; a later phase replaces the earlier one. */
  readonly report = (report: WaitReport): void => {
    if (this.reportedAt === undefined) {
      this.reportedAt = this.now();
      this.#reported();
    }
    this.phase = report.phase;
    this.progress = report.progress;
    if (report.model !== undefined) this.model = report.model;
  };
}

/** The events that end a wait: the first token of the answer, or the call's end. */
function endsWait(event: AgentEvent): boolean {
  return (
    event.type !== 'context_trimmed' &&
    event.type !== 'context_compacted' &&
    event.type !== 'waiting'
  );
}

/**
 * Passes `source`'s events through, and while no token of the answer has come — the server
 * loading the model, reading the prompt, or busy with another request — yields `waiting`
 * events: the first after `clock.firstAfterMs`, then every `clock.everyMs`, each with the
 * time since the call began and the phase and progress the transport reported to `status`.
 * A call answered sooner yields none, and so does a backend that never reports (the fetch
 * transport reports `'waiting'` as it sends the request). Returns what `source` returns.
 *
 * A phase for the pump (`pumpPhases`): once the wait is over (the first token, or the call's end),
 * it hands `source` itself to the pump, so the rest of the call's events go straight to the
 * caller instead of through here (an await and a yield less per event). A call answered at
 * once arms one timer and one race.
 */
export async function* announceWaiting<R>(
  source: AsyncGenerator<AgentEvent, R>,
  status: WaitStatus,
  clock: WaitClock = WAIT_CLOCK,
): AsyncGenerator<PhaseStep, R> {
  const started = clock.now();
  /** When the next `waiting` event is due, in ms after `started` (and after the request went out). */
  let due = clock.firstAfterMs;
  let pending: Promise<IteratorResult<AgentEvent, R>> | undefined;
  /** Ended, or handed to the pump (which runs it to its end or closes it): not ours to close. */
  let settled = false;
  try {
    for (;;) {
      const next = (pending = source.next());
      let result: IteratorResult<AgentEvent, R> | undefined;
      while (result === undefined) {
        // Due `firstAfterMs` after the call began, and not before `afterRequestMs` after the
        // request went out: until then, the call is only being prepared.
        const at = Math.max(started + due, (status.reportedAt ?? -Infinity) + clock.afterRequestMs);
        const tick = timer(Math.max(0, at - clock.now()));
        try {
          result = await Promise.race([next, tick.promise]);
        } finally {
          tick.cancel();
        }
        if (result !== undefined) break;
        if (status.reportedAt === undefined) {
          // Due, but the request is not out yet (or the backend never reports): nothing to say.
          result = await Promise.race([next, status.firstReport.then(() => undefined)]);
          continue;
        }
        // The request went out less than `afterRequestMs` ago: the loop arms the rest.
        if (clock.now() < status.reportedAt + clock.afterRequestMs) continue;
        const elapsedMs = clock.now() - started;
        due = elapsedMs + clock.everyMs;
        yield waitingEvent(status, elapsedMs);
      }
      pending = undefined;
      if (result.done === true) {
        settled = true;
        return result.value;
      }
      yield result.value;
      if (endsWait(result.value)) {
        // The wait is over: the pump runs `source` from here and resumes us with its return value.
        settled = true;
        return (yield source) as R;
      }
    }
  } finally {
    // Once `settled`, nothing to close: a `return()` on it would cost a promise and a turn per call.
    if (!settled && pending) {
      // Stopped while the call still waits (a `break` without an abort): it ends on its own;
      // its result or failure goes nowhere.
      pending.catch(() => undefined);
      source.return(undefined as R).catch(() => undefined);
    } else if (!settled) await source.return(undefined as R);
  }
}

function waitingEvent(status: WaitStatus, elapsedMs: number): Waiting {
  return {
    type: 'waiting',
    phase: status.phase,
    elapsedMs,
    ...(status.progress === undefined ? {} : { progress: status.progress }),
    ...(status.model === undefined ? {} : { model: status.model }),
  };
}

/** A promise that resolves with `undefined` after `ms`, and a cancel that clears its timer. */
function timer(ms: number): { promise: Promise<undefined>; cancel: () => void } {
  let handle: ReturnType<typeof setTimeout> | undefined;
  const promise = new Promise<undefined>((resolve) => {
    handle = setTimeout(() => resolve(undefined), ms);
  });
  return { promise, cancel: () => clearTimeout(handle) };
}
