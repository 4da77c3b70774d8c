import { assertNever, contentText, type Message, type UserContent } from '../../src/index.js';
import type { MarkdownView } from '../markdown/markdown-view.js';
import type { TextView } from '../markdown/text-view.js';
import { denialText, findTool, settle } from './tool-part.js';
import type { AssistantEntry, Entry, ToolStatus, UserEntry } from './entry-types.js';

/**
 * Transcript entries for a stored conversation: each user message, then one assistant
 * entry for everything up to the next user message (reasoning, text, tool calls and their
 * results, with the durations stored beside them). A tool result's status is read from
 * its text (the runtime writes errors as `Error: …`, denials as `… was denied …`).
 */
export function entriesFromHistory(
  messages: readonly Message[],
  make: {
    key(): number;
    markdown(text: string): MarkdownView;
    text(text: string): TextView;
    structured?: boolean;
  },
): Entry[] {
  const entries: Entry[] = [];
  let assistant: AssistantEntry | undefined;
  for (const [index, message] of messages.entries()) {
    switch (message.role) {
      case 'system':
        break;
      case 'user':
        assistant = undefined;
        entries.push(userEntry(make.key(), message.content));
        break;
      case 'assistant': {
        const textOnly = (message.tool_calls ?? []).length === 0;
        // An empty answer has nothing to show, unless it was stopped before its first word
        // ("Stopped." is shown for it). A partial answer another one follows failed and was
        // asked again (Retry): the model never saw it.
        const emptyStop = textOnly && !message.content && message.stopped === true;
        if (
          textOnly &&
          (!(message.content || emptyStop) || messages[index + 1]?.role === 'assistant')
        )
          break;
        if (!assistant) {
          assistant = { kind: 'assistant', key: make.key(), version: 0, parts: [], state: 'done' };
          entries.push(assistant);
        }
        // Stopped while it streamed: said again, so a cut-off answer does not look complete.
        if (message.stopped === true) assistant.state = 'stopped';
        if (message.reasoning)
          assistant.parts.push({
            kind: 'reasoning',
            view: make.text(message.reasoning),
            streaming: false,
          });
        // With `responseFormat`, a final answer is JSON: shown formatted, as it was live.
        const value =
          make.structured && textOnly && message.content
            ? parseJSON(message.content, undefined)
            : undefined;
        if (value !== undefined) assistant.parts.push({ kind: 'json', value });
        else if (message.content)
          assistant.parts.push({ kind: 'text', view: make.markdown(message.content) });
        for (const call of message.tool_calls ?? []) {
          assistant.parts.push({
            kind: 'tool',
            id: call.id,
            name: call.function.name,
            input: parseArguments(call.function.arguments),
            status: 'running',
            startedAt: 0,
          });
        }
        break;
      }
      case 'tool': {
        const part = assistant ? findTool(assistant, message.tool_call_id) : undefined;
        if (!part) break;
        if (message.durationMs !== undefined) part.elapsedMs = message.durationMs;
        // A result with images (content parts): shown as the value the tool returned.
        if (typeof message.content !== 'string') {
          settle(part, 'done', { result: message.content });
          break;
        }
        const isError = message.content.startsWith('Error');
        const status: ToolStatus = !isError
          ? 'done'
          : / was denied/.test(message.content)
            ? 'denied'
            : / cancelled|Skipped|interrupted/i.test(message.content)
              ? 'cancelled'
              : 'error';
        const error = message.content.replace(/^Error:\s*/, '');
        // The loop answers calls a stop cut short with "Tool … was cancelled".
        if (assistant && / was cancelled$/.test(message.content)) assistant.state = 'stopped';
        if (isError)
          settle(part, status, { error: status === 'denied' ? denialText(error) : error });
        else settle(part, status, { result: parseJSON(message.content) });
        break;
      }
      default:
        assertNever(message);
    }
  }
  return entries;
}

/** Calls still `running` once the pending ones are marked were interrupted (a reload mid-run). */
export function markInterrupted(entries: readonly Entry[]): void {
  for (const entry of entries) {
    if (entry.kind !== 'assistant') continue;
    for (const part of entry.parts) {
      if (part.kind === 'tool' && part.status === 'running')
        settle(part, 'cancelled', { error: 'Interrupted' });
    }
  }
}

function parseArguments(json: string): Record<string, unknown> {
  const value = parseJSON(json);
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>) // checked: a plain JSON object
    : { arguments: json };
}

/** Tool results are stored as text; JSON results are shown as structured data again. */
function parseJSON(text: string, fallback: unknown = text): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return fallback;
  }
}

/** A user entry for a message: its text, and its images as thumbnails. */
export function userEntry(key: number, content: UserContent): UserEntry {
  const entry: UserEntry = { kind: 'user', key, version: 0, text: contentText(content) };
  if (typeof content !== 'string') {
    const images = content.flatMap((part) =>
      part.type === 'image_url' ? [part.image_url.url] : [],
    );
    if (images.length > 0) entry.images = images;
  }
  return entry;
}

/**
 * A structured answer (`responseFormat`, the `done` event's `output`) shows as formatted
 * JSON: the answer's text part — the last part, when it is text — becomes a JSON part.
 */
export function showAsJson(entry: AssistantEntry, value: unknown): void {
  if (entry.parts.at(-1)?.kind !== 'text') return;
  entry.parts[entry.parts.length - 1] = { kind: 'json', value };
  entry.version += 1;
}
