import type { AssistantEntry } from '../transcript/transcript.js';
import { RunSlices } from './run-slices.js';

/**
 * The run going on in a chat session: the controller Stop aborts (the run's, or that of a
 * call run by Run), the entry the run writes into (streamed tool arguments go there), and a
 * promise of the run's end, and the run's {@link RunSlices} (its events and the arguments the
 * Client streams beside them re-render once per task).
 */
export class CurrentRun {
  controller: AbortController | undefined;
  entry: AssistantEntry | undefined;
  slices: RunSlices | undefined;
  /** Resolves when the current run (if any) has ended. */
  settled: Promise<unknown> = Promise.resolve();

  /**
   * Starts a run writing into `entry` (`changed` re-renders the host): its signal, its slices,
   * and `ended` to call once all is done.
   */
  begin(
    entry: AssistantEntry,
    changed: () => void,
  ): { signal: AbortSignal; slices: RunSlices; ended: () => void } {
    const controller = new AbortController();
    this.controller = controller;
    this.entry = entry;
    const slices = new RunSlices(changed);
    this.slices = slices;
    let ended: () => void = () => {};
    this.settled = new Promise<void>((resolve) => (ended = resolve));
    return { signal: controller.signal, slices, ended };
  }

  /** The run stopped writing: no controller, no entry (`settled` waits for `ended`). */
  clear(): void {
    this.controller = undefined;
    this.entry = undefined;
    this.slices = undefined;
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
