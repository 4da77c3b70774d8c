import { errorMessage } from '../errors/agent-error.js';

/**
 * The first line of an error's message: the transport appends its own setup hints on later
 * lines, guessed from the port and words of the error; a check names its own fix instead.
 */
export function firstLine(error: unknown): string {
  return errorMessage(error).split('\n', 1)[0] ?? '';
}
