import {
  assertNever,
  type AgentEvent,
  type Message,
  type PendingToolCall,
  type ToolInputDelta,
  type UserContent,
} from '../../src/index.js';
import type { FrameScheduler } from '../markdown/frame-scheduler.js';
import { MarkdownView } from '../markdown/markdown-view.js';
import type { MarkdownOptions } from '../markdown/render-markdown.js';
import { TextView } from '../markdown/text-view.js';
import {
  entriesFromHistory,
  markInterrupted,
  showAsJson,
  userEntry,
} from './entries-from-history.js';
import { endReasoning, reasoningPart, shownTextStart } from './reasoning-part.js';
import { cancelPending, findTool, markPending, settle } from './tool-part.js';
import { applyToolInput, dropToolInputs } from './tool-input-part.js';
import { applyToolEvent } from './apply-tool-event.js';
import type {
  AssistantEntry,
  AssistantPart,
  Entry,
  ReasoningPart,
  TextPart,
  ToolPart,
  UserEntry,
} from './entry-types.js';
import { waitingState } from './waiting-state.js';

export type * from './entry-types.js';

/**
 * What the chat shows: entries built from the runtime's events (and from a stored
 * history). It only records what happened; the Client decides everything. Mutable, with
 * a `version` per entry that changes on every structural change (so the list re-renders
 * only changed entries); text deltas go straight to the views, with no version change.
 */
export class Transcript {
  readonly entries: Entry[] = [];
  #keys = 0;
  readonly #scheduler: FrameScheduler | undefined;
  readonly #markdown: MarkdownOptions;

  constructor(options: { scheduler?: FrameScheduler; markdown?: MarkdownOptions } = {}) {
    this.#scheduler = options.scheduler;
    this.#markdown = options.markdown ?? {};
  }

  addUser(content: UserContent): UserEntry {
    const entry = userEntry(this.#keys++, content);
    this.entries.push(entry);
    return entry;
  }

  /**
   * The assistant entry a run writes into: the last one when resuming it, else a new one. It
   * says at once that the model is awaited (the runtime's first `waiting` event comes 250 ms
   * into the call, later on a page's first Send, which loads the runtime's parts first).
   */
  assistant(resume: boolean): AssistantEntry {
    const last = this.entries.at(-1);
    if (resume && last?.kind === 'assistant') {
      last.state = 'streaming';
      delete last.note;
      last.version += 1;
      last.waiting = { phase: 'waiting', seconds: 0 };
      return last;
    }
    const entry: AssistantEntry = {
      kind: 'assistant',
      key: this.#keys++,
      version: 0,
      parts: [],
      state: 'streaming',
      waiting: { phase: 'waiting', seconds: 0 },
    };
    this.entries.push(entry);
    return entry;
  }

  /**
   * Records one event in `entry`. Returns `true` when the entry's structure changed (a new
   * part, a status) and it must re-render; `false` for text that went to a view.
   */
  apply(entry: AssistantEntry, event: AgentEvent): boolean {
    // Anything but another wait ends it: the answer (or its end) takes the wait's place.
    const waited = entry.waiting !== undefined && event.type !== 'waiting';
    if (waited) delete entry.waiting;
    return this.#apply(entry, event) || (waited && this.#touch(entry));
  }

  #apply(entry: AssistantEntry, event: AgentEvent): boolean {
    switch (event.type) {
      case 'text':
      case 'reasoning': {
        const last = entry.parts.at(-1);
        const kind = event.type;
        // A finished view (the run before a retry ended) takes no more text: a new part does.
        if (last?.kind === kind && (last.kind === 'reasoning' || !last.view.finished)) {
          last.view.append(event.text);
          return false;
        }
        endReasoning(entry);
        entry.parts.push(
          kind === 'text' ? this.#textPart(event.text) : this.#reasoningPart(event.text),
        );
        return this.#touch(entry);
      }
      case 'tool_use':
      case 'tool_use_error':
      case 'tool_result':
        return applyToolEvent(entry, event, () => this.#keys++) && this.#touch(entry);
      case 'step_end': {
        const dropped = dropToolInputs(entry);
        return (endReasoning(entry) || dropped) && this.#touch(entry);
      }
      case 'awaiting_tool_results':
        this.markPending(entry, event.pending);
        return this.#touch(entry);
      case 'context_trimmed':
        // Said once under the answer: the model did not see the oldest part of the chat.
        entry.note = {
          text: 'The model saw only the newest part of this chat: {n} older messages did not fit its context window.',
          values: { n: event.droppedMessages },
        };
        return this.#touch(entry);
      case 'waiting': {
        if (entry.state !== 'streaming') return false;
        const waiting = waitingState(event);
        const shown = entry.waiting;
        entry.waiting = waiting;
        // Re-rendered when what it says changes (once a second at most).
        return (
          (shown?.seconds !== waiting.seconds ||
            shown.phase !== waiting.phase ||
            shown.percent !== waiting.percent) &&
          this.#touch(entry)
        );
      }
      case 'context_compacted':
        // Shown by later work (the summary divider); nothing to render yet.
        return false;
      case 'done':
        this.finish(entry, event.status === 'cancelled' ? 'stopped' : 'done');
        if (event.output !== undefined) showAsJson(entry, event.output);
        if (event.status === 'max_iterations')
          entry.note = { text: 'Stopped: the tool-round limit was reached.' };
        return true;
      default:
        return assertNever(event);
    }
  }

  /**
   * Records a streamed tool call's arguments so far in `entry` (a provisional card until
   * its `tool_use` arrives). Returns `true` when the entry must re-render; `false` when
   * only the arguments text changed (patched per frame).
   */
  toolInput(entry: AssistantEntry, delta: ToolInputDelta): boolean {
    if (entry.state !== 'streaming') return false;
    const ended = endReasoning(entry);
    const added = applyToolInput(entry, delta, this.#scheduler);
    return (added || ended) && this.#touch(entry);
  }

  /**
   * The answer this response showed so far (`text`) was reasoning — a lone `</think>`
   * (the Client's `onTextWasReasoning`): the trailing text parts holding exactly it become
   * one reasoning part. Returns `true` when the entry must re-render.
   */
  textWasReasoning(entry: AssistantEntry, text: string): boolean {
    if (entry.state !== 'streaming' || text === '') return false;
    const start = shownTextStart(entry, text);
    // Anything else means the parts are not what this response streamed: leave them.
    if (start === undefined) return false;
    entry.parts.splice(start, entry.parts.length - start, this.#reasoningPart(text));
    return this.#touch(entry);
  }

  /**
   * A retry answers again what failed: the failed response's partial text and reasoning
   * (the parts after the last tool card of the last entry) go.
   */
  dropFailedAnswer(): void {
    const last = this.entries.at(-1);
    if (last?.kind !== 'assistant') return;
    let end = last.parts.length;
    while (
      end > 0 &&
      (last.parts[end - 1]?.kind === 'text' || last.parts[end - 1]?.kind === 'reasoning')
    )
      end -= 1;
    if (end === last.parts.length) return;
    last.parts.length = end;
    last.version += 1;
  }

  /** The tool card with this call id, in any entry. */
  findTool(id: string): ToolPart | undefined {
    for (const entry of this.entries) {
      const part = entry.kind === 'assistant' ? findTool(entry, id) : undefined;
      if (part) return part;
    }
    return undefined;
  }

  /** Marks the entry holding `part` as changed (after an edit of the part). */
  touch(part: AssistantPart): void {
    for (const entry of this.entries) {
      if (entry.kind === 'assistant' && entry.parts.includes(part)) entry.version += 1;
    }
  }

  /** Calls still waiting for approval or a result are given up (the Client answers them). */
  cancelPending(reason: string): void {
    const last = this.entries.at(-1);
    if (last?.kind === 'assistant') cancelPending(last, reason);
  }

  /** Shows calls waiting for the caller (approval or an external result). */
  markPending(entry: AssistantEntry, pending: readonly PendingToolCall[]): void {
    markPending(entry, pending);
  }

  /** Ends an entry's streaming: text is rendered whole, running tools become cancelled when stopped. */
  finish(entry: AssistantEntry, state: AssistantEntry['state']): void {
    endReasoning(entry);
    dropToolInputs(entry);
    for (const part of entry.parts) {
      if (part.kind === 'text') part.view.finish();
      else if (part.kind === 'tool' && part.status === 'running' && state !== 'done')
        settle(part, 'cancelled', { error: 'Stopped' });
    }
    entry.state = state;
    entry.version += 1;
  }

  /** A run failed: its entry ends `failed`, and goes away when the run wrote nothing into it. */
  fail(entry: AssistantEntry): void {
    this.finish(entry, 'failed');
    if (entry.parts.length > 0 || entry.note !== undefined) return;
    // An empty bubble above the error banner reads as an empty answer from the model.
    const index = this.entries.indexOf(entry);
    if (index >= 0) this.entries.splice(index, 1);
  }

  /** Says, at the end of a loaded conversation, that `count` stored messages could not be read. */
  noteUnreadable(count: number): void {
    this.#pushNote({
      text: '{n} stored messages could not be read: they are left out.',
      values: { n: count },
    });
  }

  /** An answer-less `failed` entry that only carries `note`: said under the conversation. */
  #pushNote(note: NonNullable<AssistantEntry['note']>): void {
    this.entries.push({
      kind: 'assistant',
      key: this.#keys++,
      version: 0,
      parts: [],
      state: 'failed',
      note,
    });
  }

  /**
   * Rebuilds the entries from a stored conversation (and the calls still pending in it).
   * Returns `true` when its last prompt has no answer (the page was closed or reloaded while
   * the answer streamed): an empty `failed` entry says so.
   */
  load(
    messages: readonly Message[],
    pending: readonly PendingToolCall[] = [],
    structured = false,
  ): boolean {
    this.entries.length = 0;
    const built = entriesFromHistory(messages, {
      structured,
      key: () => this.#keys++,
      markdown: (text) => new MarkdownView({ text, finished: true, markdown: this.#markdown }),
      text: (text) => new TextView({ text }),
    });
    this.entries.push(...built);
    const last = this.entries.at(-1);
    if (pending.length > 0 && last?.kind === 'assistant') this.markPending(last, pending);
    markInterrupted(this.entries);
    if (messages.at(-1)?.role !== 'user') return false;
    this.#pushNote({
      text: 'The answer was interrupted: the page was closed or reloaded while it streamed.',
    });
    return true;
  }

  #textPart(text: string): TextPart {
    const view = new MarkdownView({
      markdown: this.#markdown,
      ...(this.#scheduler ? { scheduler: this.#scheduler } : {}),
    });
    view.append(text);
    return { kind: 'text', view };
  }

  #reasoningPart(text: string): ReasoningPart {
    return reasoningPart(text, true, this.#scheduler);
  }

  #touch(entry: AssistantEntry): true {
    entry.version += 1;
    return true;
  }
}
