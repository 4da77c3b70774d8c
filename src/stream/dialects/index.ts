// Every text-form dialect and the reader that finds them, loaded on first use by
// `loadTextToolCallDialects` (its own chunk: an app without tools never loads it).
import { splitGluedCalls } from '../glued-tool-calls.js';
import { ToolCallMarkupParser } from '../tool-call-markup-parser.js';
import { apertusDialect } from './apertus-dialect.js';
import { deepseekDialect } from './deepseek-dialect.js';
import { deepseekDsmlDialect } from './deepseek-dsml-dialect.js';
import { gemma4BareAnswer, gemma4Dialect } from './gemma4-dialect.js';
import { kimiK2Dialect } from './kimi-k2-dialect.js';
import { lfm2Dialect } from './lfm2-dialect.js';
import { minimaxM2Dialect } from './minimax-m2-dialect.js';
import { qwen3CoderBareDialect } from './qwen3-coder-dialect.js';
import { seedOssDialect } from './seed-oss-dialect.js';
import { functoolsAnswer } from './functools-answer.js';
import { gemmaToolCodeDialect } from './gemma-tool-code-dialect.js';
import { graniteDialect } from './granite-dialect.js';
import { hermesDialect } from './hermes-dialect.js';
import { llamaJsonAnswer, llamaPythonTagDialect } from './llama-json-dialect.js';
import { mistralDialect } from './mistral-dialect.js';
import { llama4PythonStartDialect, pythonicAnswer } from './pythonic-answer.js';
import type { TextToolCallDialects } from './text-tool-call-dialect.js';

const dialects = {
  tagged: [
    hermesDialect,
    mistralDialect,
    llamaPythonTagDialect,
    llama4PythonStartDialect,
    deepseekDialect,
    gemmaToolCodeDialect,
    graniteDialect,
    gemma4Dialect,
    kimiK2Dialect,
    minimaxM2Dialect,
    lfm2Dialect,
    seedOssDialect,
    qwen3CoderBareDialect,
    deepseekDsmlDialect,
    apertusDialect,
  ],
  wholeAnswer: [llamaJsonAnswer, pythonicAnswer, functoolsAnswer, gemma4BareAnswer],
};

/**
 * Every dialect: tagged forms count wherever they start outside a code fence; untagged ones
 * only as the whole answer.
 */
export const ALL_DIALECTS: TextToolCallDialects = {
  createReader: (toolNames, sink) => new ToolCallMarkupParser(toolNames, sink, dialects),
  splitGluedCalls,
};
