import type { MarkdownView } from '../markdown/markdown-view.js';
import type { TextView } from '../markdown/text-view.js';
import type { ToolInputPart } from './tool-input-part.js';
import type { TemplateResult } from 'lit';
import type { ChatStrings, Translate } from '../strings/chat-strings.js';

/*
 * What the chat shows, as data: a user entry or an assistant entry of parts (text,
 * reasoning, tool cards). The Transcript builds these from the runtime's events.
 */

/** Where a tool call card is. */
export type ToolStatus =
  'running' | 'done' | 'error' | 'denied' | 'cancelled' | 'approval' | 'external';

export interface TextPart {
  kind: 'text';
  view: MarkdownView;
}

export interface ReasoningPart {
  kind: 'reasoning';
  view: TextView;
  streaming: boolean;
}

export interface ToolPart {
  kind: 'tool';
  id: string;
  name: string;
  input: Record<string, unknown>;
  status: ToolStatus;
  startedAt: number;
  /** Milliseconds the call took, once settled in this session. */
  elapsedMs?: number;
  result?: unknown;
  /** The error message (`error`, `denied`, `cancelled`) or the raw arguments of a malformed call. */
  error?: string;
  /** Editing the arguments before approving: the draft JSON and its parse error. */
  draft?: string;
  draftError?: string;
  /** The user asked to see a long result whole ("Show more"). */
  expanded?: boolean;
  /** The whole long result, appended in slices, kept once made (for Show less, then more). */
  wholeResult?: HTMLElement;
  /**
   * An `external` call the element can run itself (its tool has `execute`, automatic runs
   * are off): the card offers Run / Skip.
   */
  runnable?: boolean;
  /** An `external` call a page listener took (`agent-tool-call` was `preventDefault()`ed). */
  handled?: boolean;
}

/** A structured answer (`responseFormat`): its parsed value, shown as formatted JSON. */
export interface JsonPart {
  kind: 'json';
  value: unknown;
}

export type AssistantPart = TextPart | ReasoningPart | ToolPart | ToolInputPart | JsonPart;

/** A message with versions (`‹ 2 / 3 ›`): where it is in the Client's history, which is shown. */
export interface EntryBranches {
  messageIndex: number;
  /** 0-based. */
  active: number;
  count: number;
}

export interface UserEntry {
  kind: 'user';
  key: number;
  version: number;
  text: string;
  /** The images sent with it (data URLs), shown as thumbnails. */
  images?: string[];
  /** Set when the prompt was edited: its versions. */
  branches?: EntryBranches;
  /**
   * What shows above the prompt: the "Summarised N earlier messages" divider of a summary the
   * model is sent in place of everything above it (`contextPolicy: 'summarize'`), set by the
   * dividers' code (components/summary/, loaded when a conversation has a summary).
   */
  before?: ((t: Translate) => TemplateResult) | undefined;
}

export interface AssistantEntry {
  kind: 'assistant';
  key: number;
  version: number;
  parts: AssistantPart[];
  state: 'streaming' | 'done' | 'stopped' | 'failed';
  /** A short note under the message (e.g. the tool-round limit was reached), to translate. */
  note?: { text: keyof ChatStrings; values?: Record<string, number> };
  /** Set when the answer was regenerated: its versions. */
  branches?: EntryBranches;
  /** While no token of the answer has come: what the wait is (from the `waiting` events). */
  waiting?: WaitingState;
}

/** The wait shown in the answer's place: the phase, whole seconds, and the share read. */
export interface WaitingState {
  phase: string;
  seconds: number;
  /** 0..100, when the server tells. */
  percent?: number;
  model?: string;
}

export type Entry = UserEntry | AssistantEntry;
export type { ToolInputPart } from './tool-input-part.js';
