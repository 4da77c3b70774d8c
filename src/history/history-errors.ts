import { AgentError, errorMessage, isAgentError } from '../errors/agent-error.js';

/** `VALIDATION_FAILED`: `rename` or `exportConversation` of an id the store does not hold. */
export function unknownConversation(conversationId: string): AgentError {
  return new AgentError('VALIDATION_FAILED', `Conversation "${conversationId}" does not exist.`, {
    context: { conversationId },
  });
}

/** What failed, for {@link storageFailed}. */
export interface StorageFailure {
  /** The store method, e.g. `append`. */
  operation: string;
  conversationId?: string;
  /** What storage threw: a `QuotaExceededError`, an aborted transaction, a blocked open… */
  cause: unknown;
  /** Messages of this conversation kept in memory, not yet stored. */
  unsavedMessages?: number;
}

/**
 * `STORAGE_FAILED` for a failed IndexedDB operation, naming the operation, the conversation and
 * the browser's error (`QuotaExceededError: …`). An `AgentError` passes through unchanged.
 */
export function storageFailed(failure: StorageFailure): AgentError {
  const { operation, conversationId, cause, unsavedMessages } = failure;
  if (isAgentError(cause)) return cause;
  const name =
    typeof cause === 'object' &&
    cause !== null &&
    typeof (cause as { name?: unknown }).name === 'string'
      ? (cause as { name: string }).name // DOMException names say what happened (QuotaExceededError)
      : 'Error';
  const target = conversationId === undefined ? '' : ` for conversation "${conversationId}"`;
  const kept =
    unsavedMessages === undefined || unsavedMessages === 0
      ? ''
      : ` ${unsavedMessages} message(s) are kept in memory and will be written with the next successful save.`;
  return new AgentError(
    'STORAGE_FAILED',
    `History storage failed during ${operation}${target}: ${name}: ${errorMessage(cause)}.${kept}`,
    {
      cause,
      context: {
        operation,
        errorName: name,
        ...(conversationId === undefined ? {} : { conversationId }),
        ...(unsavedMessages === undefined ? {} : { unsavedMessages }),
      },
    },
  );
}

/** A rejected promise for a synchronous throw (always an `Error`, as promise rules require). */
export function rejected(error: unknown): Promise<never> {
  return Promise.reject(error instanceof Error ? error : new Error(String(error)));
}
