import type { AssistantEntry } from '../transcript/transcript.js';

/**
 * The run going on in a chat session: the controller Stop aborts (the run's, or that of a
 * call run by Run), the entry the run writes into (streamed tool arguments go there), and a
 * promise of the run's end.
 */
export class CurrentRun {
  controller: AbortController | undefined;
  entry: AssistantEntry | undefined;
  /** Resolves when the current run (if any) has ended. */
  settled: Promise<unknown> = Promise.resolve();

  /** Starts a run writing into `entry`: its signal, and `ended` to call once all is done. */
  begin(entry: AssistantEntry): { signal: AbortSignal; ended: () => void } {
    const controller = new AbortController();
    this.controller = controller;
    this.entry = entry;
    let ended: () => void = () => {};
    this.settled = new Promise<void>((resolve) => (ended = resolve));
    return { signal: controller.signal, ended };
  }

  /** The run stopped writing: no controller, no entry (`settled` waits for `ended`). */
  clear(): void {
    this.controller = undefined;
    this.entry = undefined;
  }

  /** Lets Stop abort `controller` too; returns the undo. */
  track(controller: AbortController): () => void {
    this.controller = controller;
    return () => {
      if (this.controller === controller) this.controller = undefined;
    };
  }

  stop(): void {
    this.controller?.abort();
  }
}
