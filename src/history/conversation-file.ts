import { AgentError, errorMessage } from '../errors/agent-error.js';
import * as v from 'valibot';
import { describeIssues } from '../types/schema-check.js';
import { isRecord } from '../types/is-record.js';
import type { Message } from '../types/message.js';
import type { MessageFork } from '../types/message-fork.js';
import type { ContextSummary } from '../types/context-summary.js';
import { contextSummarySchema } from '../types/message-schema.js';
import { checkMessages } from '../types/message-schema.js';
import type { PausedState, StoredConversation } from './history-store.js';
import { valibotCheck } from '../types/valibot-check.js';
import { pausedStateSchema } from './message-schema.js';
import { CONVERSATION_FILE_FORMAT, CONVERSATION_FILE_VERSION } from './conversation-file-format.js';

export { CONVERSATION_FILE_FORMAT, CONVERSATION_FILE_VERSION } from './conversation-file-format.js';

/** An exported conversation: what `exportConversation` writes and `importConversation` reads. */
export interface ConversationFile {
  format: typeof CONVERSATION_FILE_FORMAT;
  version: 1 | typeof CONVERSATION_FILE_VERSION;
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  messages: Message[];
  pending?: PausedState;
  /** Version 2: earlier versions of messages (see `conversation-file-forks.ts`). */
  forks?: MessageFork[];
  /** Summaries of its oldest messages (`contextPolicy: 'summarize'`); readers that predate them drop them. */
  summaries?: ContextSummary[];
}

const timestamp = v.pipe(v.number(), v.minValue(0));

/** The longest id a file may carry (ids are keys in storage and in the page's URLs). */
export const MAX_FILE_ID_LENGTH = 1000;
/** A longer title in a file is cut to this length: it is shown in lists and headers. */
export const MAX_FILE_TITLE_LENGTH = 1000;

// Messages are checked (and copied) by checkMessages; this schema checks everything else.
const checkFile = valibotCheck<Omit<ConversationFile, 'messages'> & { messages: unknown }>(
  v.looseObject({
    id: v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_FILE_ID_LENGTH)),
    title: v.string(),
    createdAt: timestamp,
    updatedAt: timestamp,
    messages: v.array(v.unknown()),
    pending: v.optional(pausedStateSchema),
    forks: v.optional(v.array(v.unknown())),
    summaries: v.optional(v.array(contextSummarySchema)),
  }),
);

/** The JSON text of a conversation file (pretty-printed: people open these). */
export function serializeConversation(conversation: StoredConversation): string {
  const file: ConversationFile = {
    format: CONVERSATION_FILE_FORMAT,
    version: CONVERSATION_FILE_VERSION,
    id: conversation.id,
    title: conversation.title,
    createdAt: conversation.createdAt,
    updatedAt: conversation.updatedAt,
    messages: conversation.messages,
    ...(conversation.pending === undefined ? {} : { pending: conversation.pending }),
    ...(conversation.forks === undefined || conversation.forks.length === 0
      ? {}
      : { forks: conversation.forks }),
    ...(conversation.summaries === undefined || conversation.summaries.length === 0
      ? {}
      : { summaries: conversation.summaries }),
  };
  return JSON.stringify(file, null, 2);
}

/**
 * Parses and validates a conversation file, version 1 or 2. Its `forks` are checked only as a
 * list here: `readConversationFile` (conversation-file-forks.ts) checks them whole.
 *
 * @throws AgentError `VALIDATION_FAILED` saying what is wrong: not JSON, another format, a newer
 *   version, or the first invalid fields (`messages.3.content: …`).
 */
export function parseConversationFile(json: string): ConversationFile {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (error) {
    throw invalid(`the file is not JSON (${errorMessage(error)})`, error);
  }
  if (!isRecord(data)) throw invalid('the file is not a JSON object');
  const { format, version } = data;
  if (format !== CONVERSATION_FILE_FORMAT) {
    throw invalid(
      `"format" is ${JSON.stringify(format) ?? 'missing'}, expected "${CONVERSATION_FILE_FORMAT}"`,
    );
  }
  if (version !== 1 && version !== CONVERSATION_FILE_VERSION) {
    throw invalid(
      `"version" is ${JSON.stringify(version) ?? 'missing'}; this open-agent reads versions 1 to ${CONVERSATION_FILE_VERSION}`,
    );
  }
  const file = checkFile(data);
  if (!file.success) throw invalid(describeIssues(file.issues));
  const messages = checkMessages(file.data.messages);
  if (!messages.success) throw invalid(describeIssues(messages.issues, 'messages'));
  const { id, title, createdAt, updatedAt, pending, forks, summaries } = file.data;
  return {
    format: CONVERSATION_FILE_FORMAT,
    version,
    ...{
      id,
      title: title.slice(0, MAX_FILE_TITLE_LENGTH),
      createdAt,
      updatedAt,
      messages: messages.data,
    },
    ...(pending === undefined ? {} : { pending }),
    ...(forks === undefined || version === 1 ? {} : { forks }),
    ...(summaries === undefined || summaries.length === 0 ? {} : { summaries }),
  };
}

/** A file's reason to be refused, as `importConversation` throws it. */
export function invalid(reason: string, cause?: unknown): AgentError {
  return new AgentError('VALIDATION_FAILED', `Cannot import the conversation: ${reason}.`, {
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * An id for an imported copy whose own id is taken: the original id plus a random suffix.
 * `crypto.getRandomValues`, not `randomUUID`: the latter needs a secure context, and local
 * model UIs are often served over plain http on a LAN address.
 */
export function copyId(id: string): string {
  const [random = 0] = crypto.getRandomValues(new Uint32Array(1));
  return `${id}-${random.toString(36)}`;
}
