import * as z from 'zod/mini';
import { AgentError, errorMessage } from '../errors/agent-error.js';
import type { Message } from '../types/message.js';
import { safeParse } from '../types/safe-parse.js';
import type { PausedState, StoredConversation } from './history-store.js';
import { describeIssues, messageSchema, pausedStateSchema } from './message-schema.js';

/** The `format` field of an exported conversation. */
export const CONVERSATION_FILE_FORMAT = 'open-agent-conversation';
/** The `version` field this code writes and reads. */
export const CONVERSATION_FILE_VERSION = 1;

/** An exported conversation: what `exportConversation` writes and `importConversation` reads. */
export interface ConversationFile {
  format: typeof CONVERSATION_FILE_FORMAT;
  version: typeof CONVERSATION_FILE_VERSION;
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  messages: Message[];
  pending?: PausedState;
}

const headerSchema = z.object({ format: z.unknown(), version: z.unknown() });

// zod 4 numbers already reject Infinity and NaN.
const timestamp = z.number().check(z.nonnegative());

const fileSchema = z.object({
  format: z.literal(CONVERSATION_FILE_FORMAT),
  version: z.literal(CONVERSATION_FILE_VERSION),
  id: z.string().check(z.minLength(1)),
  title: z.string(),
  createdAt: timestamp,
  updatedAt: timestamp,
  messages: z.array(messageSchema),
  pending: z.exactOptional(pausedStateSchema),
});

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
  };
  return JSON.stringify(file, null, 2);
}

/**
 * Parses and validates a conversation file.
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
  const header = safeParse(headerSchema, data);
  if (!header.success) throw invalid('the file is not a JSON object');
  const { format, version } = header.data;
  if (format !== CONVERSATION_FILE_FORMAT) {
    throw invalid(
      `"format" is ${JSON.stringify(format) ?? 'missing'}, expected "${CONVERSATION_FILE_FORMAT}"`,
    );
  }
  if (version !== CONVERSATION_FILE_VERSION) {
    throw invalid(
      `"version" is ${JSON.stringify(version) ?? 'missing'}; this open-agent reads version ${CONVERSATION_FILE_VERSION}`,
    );
  }
  const parsed = safeParse(fileSchema, data);
  if (!parsed.success) throw invalid(describeIssues(parsed.error), parsed.error);
  return parsed.data;
}

function invalid(reason: string, cause?: unknown): AgentError {
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
