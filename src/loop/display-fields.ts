import type { Message } from '../types/message.js';

// The Client's: `query()` makes one call for a new prompt, whose history holds no display fields.

/** The sent form of each message that has display fields: the same object every call. */
const sentForms = new WeakMap<Message, Message>();

/**
 * `messages` as the model sees them: without what history keeps for display only (an
 * assistant turn's `reasoning`, `stopped` and `contextUse`, a tool's `durationMs`). Servers
 * must not see reasoning again (it would be read as part of the answer, or rejected), and no
 * server knows `durationMs`. An answer stopped before its first word is left out. Each copy is
 * kept, so a message is one object across calls: context fitting reuses the counts of the
 * prefix a request shares with the last one, compared by identity.
 */
export function withoutDisplayFields(messages: Message[]): Message[] {
  const sent: Message[] = [];
  // Per message per request (a 50-round conversation re-sends ~100 messages each round): the
  // checks are written out, where a predicate per field cost five calls per message.
  for (const message of messages) {
    // An answer stopped before its first word is kept in history (a reload says "Stopped."
    // for it) but never sent: an empty assistant message breaks some servers' chat templates.
    if (
      message.role === 'assistant' &&
      message.stopped === true &&
      !message.content &&
      !message.tool_calls?.length
    )
      continue;
    sent.push(
      'reasoning' in message ||
        'durationMs' in message ||
        'stopped' in message ||
        'contextUse' in message
        ? sentForm(message)
        : message,
    );
  }
  return sent;
}

/** `message` without its display fields, made once per message. */
function sentForm(message: Message): Message {
  let sent = sentForms.get(message);
  if (!sent) {
    const {
      reasoning: _reasoning,
      durationMs: _durationMs,
      stopped: _stopped,
      contextUse: _contextUse,
      ...rest
    } = message as Message & {
      reasoning?: string;
      durationMs?: number;
      stopped?: true;
      contextUse?: unknown;
    };
    sent = rest;
    sentForms.set(message, sent);
  }
  return sent;
}
