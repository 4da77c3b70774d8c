import {
  callsFromJsonArray,
  jsonCallViability,
  namePrefixViability,
  skipSpace,
} from './json-call.js';
import { parsePythonCalls } from './python-calls.js';
import type {
  BlockContext,
  BlockEnd,
  TaggedDialect,
  TextToolCall,
  WholeAnswerDialect,
} from './text-tool-call-dialect.js';

/**
 * A list of calls as the whole answer: Llama 3.2 (1B/3B) and Llama 4's pythonic form
 * `[get_weather(city="Paris"), get_time()]`, or a JSON list `[{"name": …, "arguments": …}]`.
 * `[1] See…` or `[a link](…)` is released as soon as the name cannot be a registered tool's.
 */
export const pythonicAnswer: WholeAnswerDialect = {
  viable(answer, toolNames) {
    if (!answer.startsWith('[')) return 'no';
    const start = skipSpace(answer, 1);
    if (start === answer.length) return 'maybe';
    if (answer[start] === '{') return jsonCallViability(answer.slice(start), toolNames);
    const name = /^[A-Za-z0-9_-]*/.exec(answer.slice(start))?.[0] ?? '';
    const after = start + name.length;
    if (after === answer.length) return name === '' ? 'no' : namePrefixViability(name, toolNames);
    const next = skipSpace(answer, after);
    if (next === answer.length) return toolNames.has(name) ? 'maybe' : 'no';
    return answer[next] === '(' && toolNames.has(name) ? 'yes' : 'no';
  },
  parse(answer, toolNames) {
    const start = skipSpace(answer, 1);
    return answer[start] === '{'
      ? callsFromJsonArray(answer, toolNames)
      : parsePythonCalls(answer, toolNames, true);
  },
};

const PYTHON_END = '<|python_end|>';

/** Llama 4 may wrap its pythonic list in `<|python_start|>` … `<|python_end|>` (a tagged form). */
export const llama4PythonStartDialect: TaggedDialect = {
  openers: ['<|python_start|>'],
  end(body: string, { scanned }: BlockContext): BlockEnd {
    const start = skipSpace(body, 0);
    if (start < body.length && body[start] !== '[') return 'not';
    const close = body.indexOf(PYTHON_END, Math.max(0, scanned - PYTHON_END.length + 1));
    return close === -1 ? 'more' : close + PYTHON_END.length;
  },
  parse(body: string, { toolNames }: BlockContext): TextToolCall[] | undefined {
    const code = body.endsWith(PYTHON_END) ? body.slice(0, -PYTHON_END.length) : body;
    return parsePythonCalls(code.trim(), toolNames, true);
  },
};
