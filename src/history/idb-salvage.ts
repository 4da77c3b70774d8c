import type { Checked } from '../types/json-schema-check.js';
import type { Message } from '../types/message.js';
import type { ConversationRecord } from './idb-records.js';

// Loaded with `import()` only when a stored record or page fails its check: a healthy history
// never runs this code. It imports no code (only types; its caller passes the checks in), so a
// bundler need not wrap the modules it shares with the first load for lazy evaluation.

/** Checks a list of stored messages (`checkMessages`, passed in by the caller). */
export type CheckMessages = (value: unknown) => Checked<Message[]>;

const reported = new Set<string>();

/**
 * Says once per conversation (per page load) that stored data was left out or rebuilt, with
 * `console.warn`: the conversation still loads and saves, so nothing throws.
 */
function report(conversationId: string, what: string): void {
  const key = `${conversationId}\n${what}`;
  if (reported.has(key)) return;
  reported.add(key);
  console.warn(`STORAGE_FAILED: stored conversation "${conversationId}" is damaged: ${what}.`);
}

/**
 * Every stored message that still validates, in order, from a conversation's pages: a page that
 * is not a list, or a message that does not validate, is left out, and so is a tool result whose
 * call was left out (a server rejects a result without its call). Calls left without a result
 * are repaired later, on load, like any interrupted call.
 */
export function salvageMessages(
  pageValues: unknown,
  options: { conversationId: string; checkMessages: CheckMessages },
): Message[] {
  const { conversationId, checkMessages } = options;
  const messages: Message[] = [];
  const callIds = new Set<string>();
  let unreadable = 0;
  for (const page of Array.isArray(pageValues) ? (pageValues as unknown[]) : []) {
    if (!Array.isArray(page)) {
      unreadable += 1;
      continue;
    }
    for (const value of page as unknown[]) {
      const checked = checkMessages([value]);
      const message = checked.success ? checked.data[0] : undefined;
      if (!message || (message.role === 'tool' && !callIds.has(message.tool_call_id))) {
        unreadable += 1;
        continue;
      }
      if (message.role === 'assistant') message.tool_calls?.forEach((call) => callIds.add(call.id));
      messages.push(message);
    }
  }
  if (unreadable > 0) {
    report(conversationId, `${unreadable} unreadable page(s) or message(s) were left out`);
  }
  return messages;
}

/** What {@link salvageRecord} rebuilds a record from. */
export interface SalvageOptions {
  conversationId: string;
  /** The stored value that failed its check. */
  value: unknown;
  messages: readonly Message[];
  /** One more than the highest stored page number: where the next page goes. */
  pageCount: number;
  now: () => number;
}

/**
 * A conversation record rebuilt from its pages, keeping whatever fields of the damaged one still
 * have the right type (title, dates, paused run).
 */
export function salvageRecord(options: SalvageOptions): ConversationRecord {
  const { conversationId, value, messages, pageCount, now } = options;
  const old: Record<string, unknown> =
    typeof value === 'object' && value !== null ? { ...value } : {};
  const time = now();
  const number = (field: unknown) => (typeof field === 'number' ? field : time);
  const record: ConversationRecord = {
    id: conversationId,
    title: typeof old.title === 'string' ? old.title : '',
    createdAt: number(old.createdAt),
    updatedAt: number(old.updatedAt),
    messageCount: messages.length,
    pageCount,
  };
  const { pending } = old;
  if (typeof pending === 'object' && pending !== null && !Array.isArray(pending)) {
    // A plain object, which is all a paused-run state is checked for.
    record.pending = pending as Record<string, unknown>;
  }
  report(conversationId, 'its record was rebuilt from its pages');
  return record;
}

/**
 * The record of a conversation whose stored record failed its check, rebuilt from its pages
 * inside the caller's readwrite transaction, so the next write continues after the last stored
 * page and every page stays readable.
 */
export async function repairRecord(
  objectStore: IDBObjectStore,
  options: Omit<SalvageOptions, 'messages' | 'pageCount'> & {
    /** Every page of the conversation (`pageRange`). */
    range: IDBKeyRange;
    checkMessages: CheckMessages;
  },
): Promise<ConversationRecord> {
  const [keys, pages] = await Promise.all([
    result(objectStore.getAllKeys(options.range)),
    result(objectStore.getAll(options.range)),
  ]);
  const last: unknown = Array.isArray(keys) ? keys.at(-1) : undefined;
  const page: unknown = Array.isArray(last) ? last[2] : undefined;
  return salvageRecord({
    ...options,
    messages: salvageMessages(pages, options),
    pageCount: typeof page === 'number' ? page + 1 : 0,
  });
}

function result(request: IDBRequest): Promise<unknown> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('An IndexedDB request failed.'));
  });
}
