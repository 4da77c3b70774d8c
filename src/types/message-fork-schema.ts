import * as v from 'valibot';
import type { Checked } from './schema-check.js';
import type { MessageFork } from './message-fork.js';
import { checkMessages } from './message-schema.js';
import { valibotCheck } from './valibot-check.js';

// Loaded only when stored or imported data has forks: a conversation never branched does
// not ship this check.

/** The shape of a fork, recursively; its messages are checked by `checkMessages`. */
const forkSchema: v.GenericSchema = v.looseObject({
  index: v.pipe(v.number(), v.integer(), v.minValue(0)),
  branches: v.pipe(
    v.array(
      v.nullable(
        v.looseObject({
          messages: v.array(v.unknown()),
          forks: v.array(v.lazy(() => forkSchema)),
        }),
      ),
    ),
    v.minLength(2),
  ),
});

const checkShape = valibotCheck<MessageFork[]>(v.array(forkSchema));

/**
 * Forks read back from storage or a file, for a branch of `length` messages: checked and
 * copied (messages as `checkMessages` copies them). Each fork sits at a message of its
 * branch, in order, and has exactly one `null` (the version its branch holds).
 */
export function checkForks(value: unknown, length: number): Checked<MessageFork[]> {
  const shape = checkShape(value);
  if (!shape.success) return shape;
  const issues: { path: PropertyKey[]; message: string }[] = [];
  const copy = (forks: MessageFork[], size: number, path: PropertyKey[]): MessageFork[] =>
    forks.map((fork, position) => {
      const at = [...path, position];
      const previous = forks[position - 1];
      if (fork.index > size || (previous !== undefined && previous.index >= fork.index)) {
        issues.push({ path: [...at, 'index'], message: `must be in order, at most ${size}` });
      }
      if (fork.branches.filter((branch) => branch === null).length !== 1) {
        issues.push({ path: [...at, 'branches'], message: 'must hold exactly one null' });
      }
      const branches = fork.branches.map((branch, number) => {
        if (branch === null) return null;
        const messages = checkMessages(branch.messages);
        if (!messages.success) {
          issues.push(
            ...messages.issues.map((issue) => ({
              ...issue,
              path: [...at, 'branches', number, 'messages', ...issue.path],
            })),
          );
          return null;
        }
        const forks = copy(branch.forks, messages.data.length, [
          ...at,
          'branches',
          number,
          'forks',
        ]);
        return { messages: messages.data, forks };
      });
      return { index: fork.index, branches };
    });
  const forks = copy(shape.data, length, []);
  return issues.length === 0 ? { success: true, data: forks } : { success: false, issues };
}
