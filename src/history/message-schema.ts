import { AgentError, errorMessage } from '../errors/agent-error.js';
import { describeIssues } from '../types/schema-check.js';
import type { Message } from '../types/message.js';
import { checkMessages } from '../types/message-schema.js';
import { jsonObjectSchema, valibotCheck } from '../types/valibot-check.js';
import type { PausedState } from './history-store.js';

/** A paused-run state: any plain (JSON) object. */
export const pausedStateSchema = jsonObjectSchema;

const checkPausedState = valibotCheck<PausedState>(pausedStateSchema);

/**
 * Messages given to `append`, checked and copied, so only valid messages are ever stored.
 *
 * @throws AgentError `VALIDATION_FAILED` naming the first invalid fields (`messages.1.content: …`).
 */
export function checkedMessages(messages: unknown): Message[] {
  const checked = checkMessages(messages);
  if (checked.success) return checked.data;
  throw new AgentError(
    'VALIDATION_FAILED',
    `Cannot store these messages: ${describeIssues(checked.issues, 'messages')}.`,
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
  const checked = checkPausedState(copy);
  if (checked.success) return checked.data;
  throw new AgentError('VALIDATION_FAILED', 'The paused-run state must be a plain JSON object.');
}
