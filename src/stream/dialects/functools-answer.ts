import { callsFromJsonArray } from './json-call.js';
import type { WholeAnswerDialect } from './text-tool-call-dialect.js';

const PREFIX = 'functools';

/** Phi-4-mini and functionary: `functools[{"name": …, "arguments": {…}}, …]` as the whole answer. */
export const functoolsAnswer: WholeAnswerDialect = {
  viable(answer) {
    if (answer.length <= PREFIX.length) return PREFIX.startsWith(answer) ? 'maybe' : 'no';
    if (!answer.startsWith(PREFIX)) return 'no';
    const rest = answer.slice(PREFIX.length).trimStart();
    if (rest === '') return 'maybe';
    return rest.startsWith('[') ? 'yes' : 'no';
  },
  parse(answer, toolNames) {
    return callsFromJsonArray(answer.slice(PREFIX.length), toolNames);
  },
};
