import * as z from 'zod/mini';
import { AgentError, errorMessage } from '../errors/agent-error.js';
import type { Message } from '../types/message.js';
import { safeParse } from '../types/safe-parse.js';
import { messageSchema } from '../types/message-schema.js';
import type { PausedState } from './history-store.js';

/** A paused-run state: any plain (JSON) object. */
export const pausedStateSchema = z.record(z.string(), z.unknown());

/** `messages.3.role: Invalid input…` — one line per zod issue, for error messages. */
export function describeIssues(error: z.core.$ZodError, prefix = ''): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => {
      const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

export { messageSchema };

const messagesSchema = z.array(messageSchema);

/**
 * Messages given to `append`, checked and copied, so only valid messages are ever stored.
 *
 * @throws AgentError `VALIDATION_FAILED` naming the first invalid fields (`1.content: …`).
 */
export function checkedMessages(messages: unknown): Message[] {
  const parsed = safeParse(messagesSchema, messages);
  if (parsed.success) return parsed.data;
  throw new AgentError(
    'VALIDATION_FAILED',
    `Cannot store these messages: ${describeIssues(parsed.error, 'messages')}.`,
    { cause: parsed.error },
  );
}

/**
 * A paused-run state given to `setPending`, copied through JSON so what is stored is JSON-safe
 * (the Client's `snapshot()` is; a function or a cycle would otherwise fail at write time).
 *
 * @throws AgentError `VALIDATION_FAILED` when it is not a JSON object.
 */
export function checkedPending(pending: unknown): PausedState | undefined {
  if (pending === undefined) return undefined;
  let copy: unknown;
  try {
    copy = JSON.parse(JSON.stringify(pending)) as unknown;
  } catch (error) {
    throw new AgentError(
      'VALIDATION_FAILED',
      `The paused-run state is not JSON-safe: ${errorMessage(error)}.`,
      { cause: error },
    );
  }
  const parsed = safeParse(pausedStateSchema, copy);
  if (parsed.success) return parsed.data;
  throw new AgentError('VALIDATION_FAILED', 'The paused-run state must be a plain JSON object.', {
    cause: parsed.error,
  });
}
