import { AgentError } from '../errors/agent-error.js';
import { createToolRegistry, type ToolRegistry } from '../tools/tool-registry.js';
import type { ChatBackend } from '../types/chat-request.js';
import type { AgentEvent } from '../types/events.js';
import { describeIssues } from '../types/schema-check.js';
import type { Message, UserContent } from '../types/message.js';
import { branchPosition, type BranchPosition } from '../types/message-fork.js';
import type * as Branching from './branching.js';
import type { LoopContext, WriteToStore } from './loop-context.js';
import type { Usage } from '../types/usage.js';
import { agentLoop, pumpPhases, promptBlocked, type PhaseStep } from './agent-loop.js';
import type { AgentOptions } from './agent-options.js';
import { backendFor } from './backend-for.js';
import { reportFor } from './report-for.js';
import {
  emptyConversationState,
  pendingCalls,
  type ClientSnapshot,
  type ConversationState,
} from './conversation-state.js';
import { ConversationPersistence } from './conversation-persistence.js';
import { runPromptHooks } from './hooks.js';
import { checkSnapshot } from './snapshot-schema.js';
import { restoredRound } from './restored-round.js';
import {
  approvedCall,
  deniedCall,
  resultCall,
  untoldErrors,
  updatePendingCall,
} from './round-actions.js';
import { cancelUnsettled, commitRound } from './round-calls.js';
import { withStreamListeners, type StreamListeners } from './stream-listeners.js';
import { withoutDisplayFields } from './display-fields.js';
import type { ContextSummary } from '../types/context-summary.js';

/** Where a {@link Client} is: `awaiting_tool_results` means pending calls wait for the caller. */
export type ClientStatus = 'idle' | 'running' | 'awaiting_tool_results' | 'closed';

/** What {@link Client.query} did with the prompt. */
export type QueryResult = { accepted: true } | { accepted: false; reason: string };

/**
 * A multi-turn agent that owns its conversation. `query()` records a prompt; iterating
 * `receiveMessages()` makes the model calls (and, with `autoExecuteTools`, runs tools
 * and loops). A run that pauses for external tools or approvals resumes after
 * `submitToolResults()` / `approve()` / `deny()` with another `receiveMessages()`.
 *
 * @example
 * await using client = new Client({ model: 'qwen3:8b', baseURL: 'http://localhost:11434/v1',
 *   tools: [weather], autoExecuteTools: true });
 * for await (const event of client.run('Weather in Oslo?')) {
 *   if (event.type === 'text') output.append(event.text);
 * }
 */
export class Client {
  readonly #options: AgentOptions;
  readonly #backend: ChatBackend;
  readonly #registry: ToolRegistry;
  readonly #persistence: ConversationPersistence;
  readonly #report: (error: AgentError) => void;
  readonly #listeners = new Set<StreamListeners>();
  #state: ConversationState = emptyConversationState();
  #signal: AbortSignal | undefined;
  #running = false;
  #closed = false;
  /** Errors of calls settled between runs (a `deny()`), yielded by the next run. */
  #untold: AgentEvent[] = [];
  /** The tools' validators, loading for a paused round that came from a snapshot or a store. */
  #toolsPrepared: Promise<void> = Promise.resolve();

  /**
   * @throws TypeError when neither `baseURL` nor `backend` is given, or two tools share a name.
   */
  constructor(options: AgentOptions) {
    this.#options = options;
    this.#backend = backendFor(options);
    this.#registry = createToolRegistry(options.tools);
    this.#report = reportFor(options);
    this.#persistence = new ConversationPersistence(options, {
      apply: (state) => {
        Object.assign(this.#state, state);
        this.#state.round = this.#restoredRound(this.#state.round);
        if (this.#state.round) this.#prepareTools();
      },
      report: this.#report,
      isIdle: () => !this.#running && !this.#closed,
    });
  }

  /**
   * Continues a conversation from {@link Client.snapshot} (e.g. after a page reload).
   * Nothing re-executes: pending calls still wait for results or approvals.
   * @throws AgentError `VALIDATION_FAILED` when the snapshot is not one.
   */
  static restore(snapshot: unknown, options: AgentOptions): Client {
    const checked = checkSnapshot(snapshot);
    if (!checked.success) {
      throw new AgentError(
        'VALIDATION_FAILED',
        `Not a Client snapshot: ${describeIssues(checked.issues, '', 1)}`,
      );
    }
    const client = new Client(options);
    const { version: _version, ...state } = checked.data;
    client.#state = structuredClone(state);
    client.#state.round = client.#restoredRound(client.#state.round);
    client.#persistence.skipLoad();
    if (client.#state.round) client.#prepareTools();
    return client;
  }

  /** A round read back from outside this page, made inert: every unanswered call asks again. */
  #restoredRound(round: ConversationState['round']): ConversationState['round'] {
    return restoredRound(round, this.#state.messages, {
      registry: this.#registry,
      autoExecuteTools: this.#options.autoExecuteTools ?? false,
    });
  }

  /**
   * Loads what the tools' `validate` needs, so that `approve()` can check an edited input: a
   * failure is left to the next model call, which reports it.
   */
  #prepareTools(): void {
    this.#toolsPrepared = this.#registry.prepare().catch(() => undefined);
  }

  /** The id this conversation is stored under (with a `history` store). */
  get conversationId(): string {
    return this.#persistence.conversationId;
  }

  /**
   * Resolves once a stored conversation has been loaded and, when it (or a restored snapshot)
   * waits for approvals, once the tools can validate an edited input in {@link Client.approve}.
   */
  get ready(): Promise<void> {
    return this.#persistence.ready.then(() => this.#toolsPrepared);
  }

  /** A copy of the conversation in OpenAI format, without the system prompt. */
  get history(): Message[] {
    return structuredClone(this.#state.messages);
  }

  /**
   * The summaries `contextPolicy: 'summarize'` wrote, of every branch, oldest first: each
   * stands for `history.slice(0, covers)` in requests while the branch shown starts with the
   * messages it covers — `await summariesFor(client.history, client.summaries)` gives those.
   */
  get summaries(): ContextSummary[] {
    return structuredClone(this.#state.summaries ?? []);
  }

  get status(): ClientStatus {
    if (this.#closed) return 'closed';
    if (this.#running) return 'running';
    return pendingCalls(this.#state.round).length > 0 ? 'awaiting_tool_results' : 'idle';
  }

  /** Token usage of the whole conversation (this client's runs). */
  get usage(): Usage {
    return { ...this.#state.usage };
  }

  /** The calls waiting for {@link Client.submitToolResults}, {@link Client.approve} or {@link Client.deny}. */
  get pending() {
    return pendingCalls(this.#state.round);
  }

  /**
   * Adds stream callbacks beside the ones in the options — for code that was handed a
   * ready Client (`<agent-chat>` given one as its `client`). They apply from the next
   * `receiveMessages()`. Returns a function that removes them.
   *
   * @example
   * const stop = client.observe({ onToolInputDelta: ({ index, inputText }) => show(index, inputText) });
   * // later: stop();
   */
  observe(listeners: StreamListeners): () => void {
    const entry = { ...listeners };
    this.#listeners.add(entry);
    return () => this.#listeners.delete(entry);
  }

  /**
   * Records a user prompt (after the `UserPromptSubmit` hooks, which may rewrite or block
   * it). The model is called as {@link Client.receiveMessages} is iterated. Calls still
   * pending from a paused run are answered with an error first (no dangling calls).
   */
  async query(prompt: UserContent, options: { signal?: AbortSignal } = {}): Promise<QueryResult> {
    this.#assertIdle('query');
    await this.#persistence.ready;
    const decision = await runPromptHooks(this.#options.hooks, prompt, this.#report);
    if (!decision.ok) return { accepted: false, reason: decision.reason };
    const round = this.#state.round;
    if (round) {
      cancelUnsettled(round, () => 'Skipped: the user sent a new message', true);
      commitRound(this.#loopState());
    }
    this.#untold = [];
    this.#append({ role: 'user', content: decision.prompt });
    this.#state.iterationCount = 0;
    this.#state.modelCallDue = true;
    this.#signal = options.signal;
    return { accepted: true };
  }

  /**
   * Runs what is due — a model call after `query()`/`continue()`, pending tools after
   * approvals — and yields its events, ending right after `done`.
   * @throws AgentError for transport failures (`HTTP_ERROR`, `NETWORK_ERROR`, `STREAM_*`),
   * with history left consistent. An abort is not thrown: it ends with `done` `cancelled`.
   */
  receiveMessages(): AsyncGenerator<AgentEvent, void> {
    return pumpPhases(this.#events(undefined));
  }

  /**
   * `query()` then `receiveMessages()`, as one async iterable (one pump: a wrapper around
   * `receiveMessages()` would add a hop to every event).
   */
  run(
    prompt: UserContent,
    options: { signal?: AbortSignal } = {},
  ): AsyncGenerator<AgentEvent, void> {
    return pumpPhases(this.#events({ prompt, options }));
  }

  /**
   * The events of `receiveMessages()`, after recording `start`'s prompt when given (`run()`), as
   * phases for {@link pumpPhases}.
   */
  async *#events(
    start: { prompt: UserContent; options: { signal?: AbortSignal } } | undefined,
  ): AsyncGenerator<PhaseStep, void> {
    if (start !== undefined) {
      const result = await this.query(start.prompt, start.options);
      if (!result.accepted) {
        yield promptBlocked();
        return;
      }
    }
    this.#assertIdle('receiveMessages');
    this.#running = true;
    const signal = this.#signal;
    this.#signal = undefined;
    try {
      await this.#persistence.ready;
      const context = {
        options: withStreamListeners(this.#options, this.#listeners),
        backend: this.#backend,
        registry: this.#registry,
        state: this.#state,
        signal,
        append: (...messages: Message[]) => this.#append(...messages),
        sent: withoutDisplayFields,
        write: (action: WriteToStore) => this.#persistence.write(action),
        report: this.#report,
        beforeDone: () => this.#persistence.savePending(this.#state.round, this.#state),
      };
      const untold = this.#untold;
      this.#untold = [];
      yield* untold;
      // Handed to the pump, not re-yielded: its events go to the caller without passing here.
      yield agentLoop(context);
    } finally {
      this.#running = false;
    }
  }

  /**
   * Records the result of a pending call. Strings go to the model as they are, anything
   * else as JSON; `isError` marks a failure; `durationMs`, how long the caller's tool ran, is
   * stored with the result for display (never sent to the model).
   * @throws TypeError for an id that is not pending.
   */
  addToolResult(
    toolUseId: string,
    content: unknown,
    options: { name?: string; isError?: boolean; durationMs?: number } = {},
  ): void {
    this.#assertIdle('addToolResult');
    updatePendingCall(this.#state, toolUseId, 'addToolResult', (call) => ({
      ...resultCall(call, content, options.isError ?? false),
      ...(options.durationMs === undefined ? {} : { durationMs: options.durationMs }),
    }));
    this.#commitIfSettled();
  }

  /** Records several results, then {@link Client.continue}s. */
  submitToolResults(
    results: readonly { toolUseId: string; content: unknown; isError?: boolean }[],
    options: { signal?: AbortSignal } = {},
  ): void {
    for (const result of results) {
      this.addToolResult(
        result.toolUseId,
        result.content,
        result.isError === undefined ? {} : { isError: result.isError },
      );
    }
    this.continue(options);
  }

  /**
   * Makes the next `receiveMessages()` call the model again with no new user message — e.g.
   * a retry after a transport error. The partial answer a failed response left in history
   * is not sent again (the model answers anew, and roles keep alternating); it stays in
   * `history`, followed by the new answer.
   * @throws TypeError while calls still wait for results.
   */
  continue(options: { signal?: AbortSignal } = {}): void {
    this.#assertIdle('continue');
    const waiting = pendingCalls(this.#state.round);
    if (waiting.length > 0) {
      throw new TypeError(
        `${waiting.length} tool call(s) still wait for a result: ${waiting.map((call) => call.toolUseId).join(', ')}`,
      );
    }
    this.#state.modelCallDue = true;
    this.#signal = options.signal;
  }

  /**
   * Approves a call waiting for approval, optionally with edited input (validated again).
   * After {@link Client.restore} or a reload from a store, await {@link Client.ready} first:
   * a plain-JSON-Schema tool's validator may still be loading (`approve` then throws).
   */
  approve(toolUseId: string, options: { input?: Record<string, unknown> } = {}): void {
    this.#assertIdle('approve');
    updatePendingCall(this.#state, toolUseId, 'approve', (call) =>
      approvedCall(this.#registry, call, options.input),
    );
  }

  /** Denies a call waiting for approval: the model is told it was denied, with `reason`. */
  deny(toolUseId: string, reason = 'denied by the user'): void {
    this.#assertIdle('deny');
    updatePendingCall(this.#state, toolUseId, 'deny', (call) => deniedCall(call, reason));
    this.#commitIfSettled();
  }

  /**
   * Edit and resend: starts a new version of the user message at `messageIndex` (an index
   * into {@link Client.history}). What followed it stays reachable as an earlier version
   * ({@link Client.switchBranch}); the next `query()` / `run()` sends only what came before.
   * Same as `branchFrom(messageIndex - 1)`, for a user message.
   * @throws TypeError when `messageIndex` is not the index of a user message.
   */
  rewind(messageIndex: number): Promise<void> {
    if (this.#state.messages[messageIndex]?.role !== 'user') {
      throw new TypeError(`rewind: message ${messageIndex} is not a user message`);
    }
    return this.branchFrom(messageIndex - 1);
  }

  /**
   * Continues from the message at `messageIndex` (-1: from the start): the messages after it
   * become an earlier version of the next one, reachable with {@link Client.switchBranch},
   * and the next `query()` (an edited prompt) or `continue()` + `receiveMessages()` (a
   * regenerated answer) sends that branch's messages, nothing else. Calls still pending are
   * answered first (`EXECUTION_CANCELLED`), so no branch keeps a call without a result. A
   * stored conversation is rewritten with its branches; resolves once it is.
   * @throws TypeError when the message after `messageIndex` is a tool result (a cut there
   * would part a call from its result).
   *
   * @example
   * // Regenerate the answer to the prompt at index 4, keeping the old answer:
   * await client.branchFrom(4);
   * client.continue();
   * for await (const event of client.receiveMessages()) show(event);
   * client.branchesAt(5); // { active: 1, count: 2 }
   */
  branchFrom(messageIndex: number): Promise<void> {
    return this.#branch('branchFrom', (branching, context) =>
      branching.branchFrom(context, messageIndex + 1),
    );
  }

  /**
   * Which version of the message at `messageIndex` the active branch holds, of how many:
   * `{ active: 0, count: 1 }` for a message never regenerated or edited.
   */
  branchesAt(messageIndex: number): BranchPosition {
    return branchPosition(this.#state.forks, messageIndex);
  }

  /**
   * Shows version `branch` (0-based, in the order made) of the message at `messageIndex`:
   * {@link Client.history} becomes that version and its continuation, and the one shown so
   * far is kept. Stored conversations keep the choice; resolves once it is written.
   * @throws RangeError when the message has no such version.
   *
   * @example
   * const { active, count } = client.branchesAt(5);
   * if (active > 0) await client.switchBranch(5, active - 1); // ‹ the earlier answer
   */
  switchBranch(messageIndex: number, branch: number): Promise<void> {
    return this.#branch('switchBranch', (branching, context) =>
      branching.switchBranch(context, messageIndex, branch),
    );
  }

  /** Changes the branch shown (with the code loaded on first use) and stores the result. */
  async #branch(
    method: string,
    change: (branching: typeof Branching, context: Pick<LoopContext, 'state' | 'append'>) => void,
  ): Promise<void> {
    this.#assertIdle(method);
    await this.#persistence.ready;
    const branching = await import('./branching.js');
    this.#assertIdle(method);
    change(branching, this.#loopState());
    this.#untold = [];
    return this.#persistence.replace(this.#state.messages, this.#state.forks);
  }

  /** The conversation as plain JSON, for {@link Client.restore}. Synchronous. */
  snapshot(): ClientSnapshot {
    return structuredClone({ version: 1 as const, ...this.#state });
  }

  /** Stops using the client; later calls throw. */
  close(): Promise<void> {
    this.#closed = true;
    return this.#persistence.close();
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  #append(...messages: Message[]): void {
    this.#state.messages.push(...messages);
    this.#persistence.append(messages);
  }

  #loopState() {
    return {
      state: this.#state,
      options: this.#options,
      append: (...messages: Message[]) => this.#append(...messages),
    };
  }

  #commitIfSettled(): void {
    const round = this.#state.round;
    if (round && round.calls.every((call) => call.status === 'settled')) {
      // A denial nobody has heard of yet is told by the resumed run, like a hook's denial.
      this.#untold.push(...untoldErrors(round));
      commitRound(this.#loopState());
      // The round is answered: the next receiveMessages() resumes with a model call
      // (`continue()` says the same thing, and stays the way to pass a signal).
      this.#state.modelCallDue = true;
      this.#persistence.savePending(null).catch(() => undefined);
    }
  }

  #assertIdle(method: string): void {
    if (this.#closed) throw new TypeError(`${method}: the client is closed`);
    if (this.#running)
      throw new TypeError(`${method}: a run is in progress; wait for its done event`);
  }
}
