import type { ConversationFile } from './conversation-file.js';

/**
 * Parses and validates a conversation file (what `exportConversation` writes), version 1 or 2,
 * checking a version 2 file's `forks` whole. The checks load on the first call: a page that
 * never imports a file never ships them.
 *
 * @throws AgentError `VALIDATION_FAILED` saying what is wrong: not JSON, another format, a newer
 *   version, or the first invalid fields (`messages.3.content: …`, `forks.0.branches: …`).
 *
 * @example
 * const file = await readConversationFile(await input.files[0].text());
 * console.log(file.version, file.messages.length, file.forks?.length ?? 0);
 */
export async function readConversationFile(json: string): Promise<ConversationFile> {
  return (await import('./conversation-file-forks.js')).readConversationFile(json);
}
