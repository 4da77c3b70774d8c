import type { Checked } from '../types/schema-check.js';
import type { Message } from '../types/message.js';
import type { ConversationRecord } from './idb-records.js';

// Loaded with `import()` only when a stored record or page fails its check: a healthy history
// never runs this code. It imports only types (its caller passes the checks in), so a bundler
// need not wrap the modules it shares with the first load for lazy evaluation.

/** Checks a list of stored messages (`checkMessages`, passed in by the caller). */
export type CheckMessages = (value: unknown) => Checked<Message[]>;

const reported = new Set<string>();

/** Says once per conversation and kind of damage (per page load), with `console.warn`. */
function report(conversationId: string, what: string): void {
  if (reported.has(conversationId + what)) return;
  reported.add(conversationId + what);
  console.warn(`STORAGE_FAILED: stored conversation "${conversationId}" is damaged: ${what}.`);
}

/**
 * Every stored message that still validates, in order, from a conversation's pages: a page that
 * is not a list, or a message that does not validate, is left out, and so is a tool result whose
 * call was left out (a server rejects a result without its call). Calls left without a result
 * are repaired on load, like any interrupted call.
 */
export function salvageMessages(
  pageValues: unknown,
  conversationId: string,
  checkMessages: CheckMessages,
): { messages: Message[]; lost: number } {
  const messages: Message[] = [];
  const callIds = new Set<string>();
  let lost = 0;
  for (const page of Array.isArray(pageValues) ? (pageValues as unknown[]) : []) {
    for (const value of Array.isArray(page) ? (page as unknown[]) : [undefined]) {
      const checked = checkMessages([value]);
      const message = checked.success ? checked.data[0] : undefined;
      if (!message || (message.role === 'tool' && !callIds.has(message.tool_call_id))) lost++;
      else {
        if (message.role === 'assistant')
          message.tool_calls?.forEach((call) => callIds.add(call.id));
        messages.push(message);
      }
    }
  }
  if (lost) report(conversationId, `${lost} unreadable page(s) or message(s) were left out`);
  return { messages, lost };
}

/**
 * A conversation record rebuilt from its messages and page count, keeping the damaged record's
 * title when it is still a string.
 */
export function salvageRecord(
  value: unknown,
  conversationId: string,
  counts: Pick<ConversationRecord, 'messageCount' | 'pageCount'>,
): ConversationRecord {
  const title: unknown = (value as { title?: unknown } | null)?.title;
  const time = Date.now();
  report(conversationId, 'its record was rebuilt from its pages');
  return {
    id: conversationId,
    title: typeof title === 'string' ? title : '',
    createdAt: time,
    updatedAt: time,
    ...counts,
  };
}

/**
 * The record of a conversation whose stored record failed its check, rebuilt from `range` (its
 * pages) inside the caller's readwrite transaction, so the next write continues after the last
 * stored page and every page stays readable.
 */
export async function repairRecord(
  objectStore: IDBObjectStore,
  options: {
    value: unknown;
    conversationId: string;
    range: IDBKeyRange;
    checkMessages: CheckMessages;
  },
): Promise<ConversationRecord> {
  const { value, conversationId, range, checkMessages } = options;
  const [keys, pages] = await Promise.all([
    result(objectStore.getAllKeys(range)),
    result(objectStore.getAll(range)),
  ]);
  const last = (keys as IDBValidKey[][]).at(-1)?.[2];
  const { messages } = salvageMessages(pages, conversationId, checkMessages);
  return salvageRecord(value, conversationId, {
    messageCount: messages.length,
    pageCount: typeof last === 'number' ? last + 1 : 0,
  });
}

function result(request: IDBRequest): Promise<unknown> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('An IndexedDB request failed.'));
  });
}
