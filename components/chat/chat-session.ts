import {
  Client,
  indexedDBHistory,
  type AgentEvent,
  type AgentOptions,
  type HistoryStore,
  type UserContent,
} from '../../src/index.js';
import type { FrameScheduler } from '../markdown/frame-scheduler.js';
import { asError } from './error-text.js';
import { WaitingCalls } from './waiting-calls.js';
import { takeStoredDurations } from '../transcript/tool-part.js';
import type { AssistantEntry, ToolPart, Transcript } from '../transcript/transcript.js';
import type { SessionHost } from './session-host.js';
import { sessionTranscript } from './session-transcript.js';
import { messageRow } from './message-row-loader.js';
import { lastPrompt } from './composer-input.js';
import { storedContextUse, type ContextUse } from './chat-controls.js';
import { feedRun, observeRun } from './feed-run.js';
import { CurrentRun } from './current-run.js';

export type { SessionHost } from './session-host.js';

/**
 * The element's link to a {@link Client}: builds (or adopts) it, loads its stored
 * conversation, and turns user actions into Client calls — `run`, `approve`/`deny`,
 * `addToolResult`, `continue` + `receiveMessages` — feeding every event it yields to the
 * {@link Transcript}. The loop itself is the Client's; nothing here decides what runs.
 */
export class ChatSession {
  client: Client | undefined;
  store: HistoryStore | undefined;
  transcript: Transcript;
  running = false;
  loading = false;
  error: Error | undefined;
  warning: string | undefined;
  /** Stored messages the last load could not read (told by the Client's `onError`). */
  #unreadable = 0;
  /** The last request's prompt tokens and the window it was fitted to (`step_end`); none before a request. */
  context: ContextUse | undefined;
  /** The user's and the page's answers to calls that wait (approve, deny, Run, a result). */
  readonly calls: WaitingCalls;
  readonly #host: SessionHost;
  readonly #scheduler: FrameScheduler;
  #owned = false;
  readonly #run = new CurrentRun();
  /** Removes this session's stream listeners from the Client in use. */
  #unobserve: (() => void) | undefined;
  #defaultStore: HistoryStore | undefined;
  #deferred: { fresh: boolean; newConversation: boolean } | undefined;

  constructor(host: SessionHost, scheduler: FrameScheduler) {
    this.#host = host;
    this.#scheduler = scheduler;
    this.transcript = sessionTranscript(this.#host, this.#scheduler);
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the port reads live fields
    const session = this;
    this.calls = new WaitingCalls({
      get client() {
        return session.client;
      },
      get running() {
        return session.running;
      },
      get transcript() {
        return session.transcript;
      },
      get settled() {
        return session.#run.settled;
      },
      tools: () => {
        const tools = host.clientOptions().tools ?? [];
        return typeof tools === 'function' ? tools() : tools;
      },
      emit: (detail) => host.emit('agent-tool-call', detail),
      record: (action) => this.#call(action),
      touch: (part) => this.#touch(part),
      resumeWhenSettled: (client) => this.#resumeWhenSettled(client),
      track: (controller) => this.#run.track(controller),
    });
  }

  /**
   * Applies the element's settings. The same conversation carries over to the new Client
   * (from a snapshot); another `conversation-id` loads that one. Waits for a running run
   * to stop first. `fresh` re-renders the transcript (new markdown options).
   */
  configure({ fresh = false, newConversation = false } = {}): void {
    if (this.running) {
      this.#deferred = {
        fresh: fresh || this.#deferred?.fresh === true,
        newConversation: newConversation || this.#deferred?.newConversation === true,
      };
      this.#run.stop();
      return;
    }
    const host = this.#host;
    const previous = this.client;
    if (fresh) this.transcript = sessionTranscript(this.#host, this.#scheduler);
    if (host.client) {
      const adopted = host.client !== previous || this.#owned;
      this.#replace(host.client, undefined, false);
      if (adopted || fresh) this.#load(host.client);
      return;
    }
    const options = host.clientOptions();
    if (!options.backend && !options.baseURL) {
      this.#replace(undefined, undefined, false);
      this.transcript.load([]);
      host.changed();
      return;
    }
    const store =
      host.history ??
      (host.conversationId === undefined ? undefined : (this.#defaultStore ??= indexedDBHistory()));
    const keepId = !newConversation && this.#owned ? previous?.conversationId : undefined;
    const conversationId = host.conversationId ?? keepId;
    const same =
      previous !== undefined &&
      this.#owned &&
      !this.loading &&
      !newConversation &&
      store === this.store &&
      previous.conversationId === conversationId;
    const full: AgentOptions = {
      ...options,
      ...(store ? { history: store } : {}),
      ...(conversationId === undefined ? {} : { conversationId }),
      onError: (error) => {
        options.onError?.(error);
        const unreadable = error.context?.unreadableMessages;
        // Damage found while loading is shown in the transcript too, where the messages are missing.
        if (error.code === 'STORAGE_FAILED' && typeof unreadable === 'number')
          this.#unreadable = unreadable;
        this.warning = error.message;
        host.emit('agent-error', { error, fatal: false });
        host.changed();
      },
    };
    let client: Client;
    try {
      client = same ? Client.restore(previous.snapshot(), full) : new Client(full);
    } catch (error) {
      this.#replace(undefined, store, true);
      this.error = asError(error);
      host.changed();
      return;
    }
    this.#replace(client, store, true);
    if (!same) this.#load(client);
    else if (fresh) this.#show(client);
    else host.changed();
  }

  /** Sends a prompt; resolves `true` when the run ended without an error. */
  async send(prompt: UserContent): Promise<boolean> {
    const client = this.client;
    if (client && this.loading) await client.ready;
    if (!client || client !== this.client || this.running || this.loading) return false;
    this.transcript.cancelPending('Skipped: a new message was sent');
    this.transcript.addUser(prompt);
    const entry = this.transcript.assistant(false);
    return this.#drive(entry, (signal) => client.run(prompt, { signal }));
  }

  /**
   * Sends `prompt` as a new version of the user message at `messageIndex` of the Client's
   * history (`Client.rewind`): edit and resend. The earlier version stays reachable.
   */
  async resend(messageIndex: number, prompt: UserContent): Promise<boolean> {
    return (await this.#branch((client) => client.rewind(messageIndex))) && this.send(prompt);
  }

  /**
   * Asks again for the answer to the last prompt (`Client.branchFrom`): the answer shown so
   * far stays as an earlier version, `‹ 1 / 2 ›` under the new one.
   */
  async regenerate(): Promise<boolean> {
    const last = lastPrompt(this.client?.history ?? []);
    return (
      last !== undefined &&
      (await this.#branch((client) => client.branchFrom(last.index))) &&
      this.#resume(this.client!)
    );
  }

  /** Shows another version of a message and its continuation. */
  switchBranch(messageIndex: number, branch: number): Promise<boolean> {
    return this.#branch((client) => client.switchBranch(messageIndex, branch));
  }

  async #branch(change: (client: Client) => Promise<void>): Promise<boolean> {
    const client = this.client;
    if (!client || this.running || this.loading) return false;
    try {
      await change(client);
    } catch (error) {
      this.error = asError(error);
      this.#host.changed();
      return false;
    }
    this.error = undefined;
    this.#reload(client);
    this.#host.changed();
    return true;
  }

  #reload(client: Client): boolean {
    const structured = this.#host.clientOptions().responseFormat !== undefined;
    const interrupted = this.transcript.load(client.history, client.pending, structured);
    this.markBranches();
    return interrupted;
  }

  /**
   * Marks the messages that have versions and places the summaries' dividers, once the message
   * row is loaded (see its markSession). `live`: during a run, on its `context_compacted` (feed-run:
   * its divider shows then, not when the run ends).
   */
  markBranches(live = false): void {
    messageRow()?.markSession(this, () => this.#host.changed(), live);
  }

  /** Calls the model again with the conversation as it is (after an error). */
  async retry(): Promise<boolean> {
    const client = this.client;
    if (!client || this.running) return false;
    // The Client does not send a failed partial answer again (the model answers anew): nor
    // is it shown above the new one.
    const last = client.history.at(-1);
    if (last?.role === 'assistant' && (last.tool_calls ?? []).length === 0)
      this.transcript.dropFailedAnswer();
    return this.#resume(client);
  }

  stop(): void {
    this.#run.stop();
  }

  dismiss(): void {
    this.error = undefined;
    this.warning = undefined;
    this.#host.changed();
  }

  /** A new, empty conversation in memory mode. */
  reset(): void {
    this.configure({ newConversation: true });
  }

  #resumeWhenSettled(client: Client): Promise<boolean> {
    if (client.pending.length > 0) {
      this.#host.changed();
      return Promise.resolve(true);
    }
    return this.#resume(client);
  }

  #resume(client: Client): Promise<boolean> {
    const entry = this.transcript.assistant(true);
    return this.#drive(entry, (signal) => {
      client.continue({ signal });
      return client.receiveMessages();
    });
  }

  async #drive(
    entry: AssistantEntry,
    start: (signal: AbortSignal) => AsyncIterable<AgentEvent>,
  ): Promise<boolean> {
    const host = this.#host;
    const { signal, slices, ended } = this.#run.begin(entry, () => host.changed());
    this.running = true;
    this.error = undefined;
    host.changed();
    const detail = await feedRun({
      entry,
      events: () => start(signal),
      session: this,
      host,
      scheduler: this.#scheduler,
      slices,
    });
    if (this.client) takeStoredDurations(entry, this.client.history);
    this.running = false;
    this.#run.clear();
    this.markBranches();
    host.changed();
    host.emit('agent-run-end', detail);
    const deferred = this.#deferred;
    this.#deferred = undefined;
    if (deferred) this.configure(deferred);
    else if (detail.status === 'awaiting_tool_results') this.calls.offer();
    ended();
    return detail.status !== 'error';
  }

  #load(client: Client): void {
    this.loading = true;
    this.transcript.load([]);
    this.#host.changed();
    void client.ready.then(() => {
      if (this.client !== client) return;
      this.loading = false;
      this.#show(client);
    });
  }

  #show(client: Client): void {
    const interrupted = this.#reload(client);
    // The meter shows what the last request used, as it did before the reload.
    this.context ??= storedContextUse(client.history);
    if (this.#unreadable > 0) this.transcript.noteUnreadable(this.#unreadable);
    this.#unreadable = 0;
    if (interrupted && !this.running) {
      this.error = new Error('The last answer was interrupted. Retry asks the model again.');
    }
    this.calls.offer();
    this.#host.loaded();
  }

  #replace(client: Client | undefined, store: HistoryStore | undefined, owned: boolean): void {
    const previous = this.client;
    if (previous && previous !== client && this.#owned) void previous.close();
    this.#unobserve?.();
    // Own or adopted, the Client streams arguments into cards (and moves reasoning shown as answer).
    this.#unobserve =
      client &&
      observeRun(client, {
        session: this,
        entry: () => this.#run.entry,
        changed: () => (this.#run.slices ? this.#run.slices.change() : this.#host.changed()),
      });
    // Another Client (another conversation): its meter starts with its first request.
    if (client !== previous) this.context = undefined;
    this.client = client;
    this.store = store;
    this.#owned = owned;
    this.loading = false;
    this.error = undefined;
  }

  #call(action: () => void): boolean {
    try {
      action();
      return true;
    } catch (error) {
      this.error = asError(error);
      this.#host.changed();
      return false;
    }
  }

  #touch(part: ToolPart): void {
    this.transcript.touch(part);
    this.#host.changed();
  }
}
