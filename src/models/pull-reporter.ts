import type { PullProgress } from './local-models.js';

/** How often the last progress is told again while the server is silent (verifying, stalled). */
const TICK_MS = 250;
/** Byte counts arriving faster than this are told at most this often. */
const MIN_GAP_MS = 100;
/** The speed is measured over this much of the recent past. */
const SPEED_WINDOW_MS = 3_000;

/** What a server said about a download, before it becomes a {@link PullProgress}. */
export interface PullState {
  status: string;
  completed: number;
  total?: number | undefined;
  /** The server's own speed figure (LM Studio), preferred to the measured one. */
  bytesPerSecond?: number | undefined;
}

/**
 * Turns what a server says during a download into `onProgress` calls: at most one per
 * 100 ms while bytes pour in, every phase change at once, and the last state again every
 * 250 ms while the server says nothing (so a bar's speed falls during a stall, and a UI is
 * told at least every 500 ms). The percent stays below 100 until {@link finish}: bytes on
 * disk are not yet a verified model.
 */
export class PullReporter {
  readonly #listener: ((progress: PullProgress) => void) | undefined;
  readonly #now: () => number;
  #state: PullState = { status: 'starting', completed: 0 };
  #lastTold = -Infinity;
  #samples: { at: number; completed: number }[] = [];
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    listener: ((progress: PullProgress) => void) | undefined,
    now: () => number = () => performance.now(),
  ) {
    this.#listener = listener;
    this.#now = now;
  }

  /** Starts the silence ticker. */
  start(): void {
    if (this.#listener === undefined || this.#timer !== undefined) return;
    this.#timer = setInterval(() => {
      if (this.#now() - this.#lastTold >= TICK_MS) this.#tell(false);
    }, TICK_MS);
  }

  /** The server's latest word. */
  update(state: PullState): void {
    const phaseChanged = state.status !== this.#state.status;
    this.#state = state;
    const at = this.#now();
    this.#samples.push({ at, completed: state.completed });
    while (this.#samples.length > 2 && at - (this.#samples[0]?.at ?? at) > SPEED_WINDOW_MS)
      this.#samples.shift();
    if (phaseChanged || at - this.#lastTold >= MIN_GAP_MS) this.#tell(false);
  }

  /** The server said the model is ready: 100 %, once. */
  finish(status = 'success'): void {
    this.stop();
    const total = this.#state.total ?? this.#state.completed;
    this.#state = { status, completed: Math.max(this.#state.completed, total), total };
    this.#tell(true);
  }

  /** Stops the ticker (after a failure or a cancel). */
  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #tell(done: boolean): void {
    if (this.#listener === undefined) return;
    this.#lastTold = this.#now();
    const { status, completed, total } = this.#state;
    const percent = done
      ? 100
      : total === undefined || total === 0
        ? 0
        : Math.min(99, Math.floor((completed * 100) / total));
    const speed = done ? undefined : (this.#state.bytesPerSecond ?? this.#measuredSpeed());
    this.#listener({
      status,
      completed,
      ...(total === undefined ? {} : { total }),
      percent,
      ...(speed === undefined ? {} : { bytesPerSecond: speed }),
      done,
    });
  }

  #measuredSpeed(): number | undefined {
    const first = this.#samples[0];
    const last = this.#samples.at(-1);
    if (!first || !last || first === last) return undefined;
    // Measured up to now, not to the last sample: during a stall the speed falls.
    const elapsed = this.#now() - first.at;
    return elapsed > 0
      ? Math.max(0, Math.round(((last.completed - first.completed) * 1000) / elapsed))
      : undefined;
  }
}
