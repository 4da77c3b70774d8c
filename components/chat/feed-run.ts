import type { AgentEvent, Client } from '../../src/index.js';
import type { FrameScheduler } from '../markdown/frame-scheduler.js';
import type { AssistantEntry, Transcript } from '../transcript/transcript.js';
import type { AgentRunEndDetail } from './chat-events.js';
import type { ContextUse } from './chat-controls.js';
import { asError } from './error-text.js';
import { RunSlices } from './run-slices.js';
import type { SessionHost } from './session-host.js';

/** The session state a run writes: the meter's context use, the run's error. */
export interface RunState {
  readonly transcript: Transcript;
  context: ContextUse | undefined;
  error: Error | undefined;
  /**
   * Places the summaries' dividers (and marks versions) from the message row's chunk; `live`
   * (on a run's `context_compacted`): a summary was just sent, its divider shows now.
   */
  markBranches?(live: boolean): void;
}

/**
 * Feeds one run's events into `entry` of the session's transcript, the context meter and the
 * host's `agent-event`s; a throw fails the entry and is reported as `agent-error` (fatal).
 * The entry stops streaming and the scheduled frames are flushed at the end. Resolves how the
 * run ended (the `agent-run-end` detail); never rejects.
 */
export async function feedRun(run: {
  entry: AssistantEntry;
  /** Starts the run (called once, inside the `try`: a synchronous throw fails the run too). */
  events: () => AsyncIterable<AgentEvent>;
  session: RunState;
  host: SessionHost;
  scheduler: FrameScheduler;
  /**
   * Events that come back to back (200 tool calls) re-render once per task, in tasks of
   * bounded length: the run's own slices (shared with what {@link observeRun} reports), or new.
   */
  slices?: RunSlices;
}): Promise<AgentRunEndDetail> {
  const { entry, session, host } = run;
  const transcript = session.transcript;
  let detail: AgentRunEndDetail = { status: 'completed' };
  const slices = run.slices ?? new RunSlices(() => host.changed());
  try {
    for await (const event of run.events()) {
      if (transcript.apply(entry, event))
        slices.change(event.type === 'awaiting_tool_results' || event.type === 'done');
      if (event.type === 'step_end' && event.usage && event.contextWindow) {
        session.context = { used: event.usage.promptTokens, window: event.contextWindow };
        slices.change();
      }
      if (event.type === 'context_compacted') session.markBranches?.(true);
      host.emit('agent-event', event);
      if (event.type === 'done') detail = { status: event.status, usage: event.usage };
      const paused = slices.pace();
      if (paused) await paused;
    }
  } catch (error) {
    const failure = asError(error);
    transcript.fail(entry);
    session.error = failure;
    detail = { status: 'error', error: failure };
    host.emit('agent-error', { error: failure, fatal: true });
  } finally {
    if (entry.state === 'streaming') transcript.finish(entry, 'done');
    slices.flush();
    run.scheduler.flush();
  }
  return detail;
}

/**
 * Streams what the Client reports beside its events into the entry the current run writes
 * (`entry()`, none between runs): tool arguments into provisional cards, and Qwen3-style
 * output that starts in reasoning moves what was shown as answer. `changed` re-renders: give
 * it the run's {@link RunSlices} — a model answering 200 calls streams their arguments in one
 * task, and a render per new call (each building every card so far) was a task of 200+ ms.
 * Returns the unobserve.
 */
export function observeRun(
  client: Client,
  run: {
    session: { readonly transcript: Transcript };
    entry(): AssistantEntry | undefined;
    changed(): void;
  },
): () => void {
  return client.observe({
    onToolInputDelta: (delta) => {
      const entry = run.entry();
      if (entry && run.session.transcript.toolInput(entry, delta)) run.changed();
    },
    onTextWasReasoning: (text) => {
      const entry = run.entry();
      if (entry && run.session.transcript.textWasReasoning(entry, text)) run.changed();
    },
  });
}
