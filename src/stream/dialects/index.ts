import { deepseekDialect } from './deepseek-dialect.js';
import { functoolsAnswer } from './functools-answer.js';
import { gemmaToolCodeDialect } from './gemma-tool-code-dialect.js';
import { graniteDialect } from './granite-dialect.js';
import { hermesDialect } from './hermes-dialect.js';
import { llamaJsonAnswer, llamaPythonTagDialect } from './llama-json-dialect.js';
import { mistralDialect } from './mistral-dialect.js';
import { llama4PythonStartDialect, pythonicAnswer } from './pythonic-answer.js';
import type { TaggedDialect, WholeAnswerDialect } from './text-tool-call-dialect.js';

/** Dialects whose calls start with a marker, wherever it appears outside a code fence. */
export const TAGGED_DIALECTS: readonly TaggedDialect[] = [
  hermesDialect,
  mistralDialect,
  llamaPythonTagDialect,
  llama4PythonStartDialect,
  deepseekDialect,
  gemmaToolCodeDialect,
  graniteDialect,
];

/** Dialects that count only as the whole answer. */
export const WHOLE_ANSWER_DIALECTS: readonly WholeAnswerDialect[] = [
  llamaJsonAnswer,
  pythonicAnswer,
  functoolsAnswer,
];
