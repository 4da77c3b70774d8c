import { describeIssues } from '../types/schema-check.js';
import { parseConversationFile, invalid, type ConversationFile } from './conversation-file.js';

/**
 * Parses and validates a conversation file (see `parseConversationFile`), checking a version 2
 * file's `forks` whole — loading that check only when the file has forks.
 *
 * @throws AgentError `VALIDATION_FAILED` saying what is wrong (`forks.0.branches: …`).
 *
 * @example
 * const file = await readConversationFile(await input.files[0].text());
 * console.log(file.version, file.messages.length, file.forks?.length ?? 0);
 */
export async function readConversationFile(json: string): Promise<ConversationFile> {
  const file = parseConversationFile(json);
  if (file.forks === undefined) return file;
  const { checkForks } = await import('../types/message-fork-schema.js');
  const forks = checkForks(file.forks, file.messages.length);
  if (!forks.success) throw invalid(describeIssues(forks.issues, 'forks'));
  const { forks: _unchecked, ...rest } = file;
  return forks.data.length === 0 ? rest : { ...rest, forks: forks.data };
}
