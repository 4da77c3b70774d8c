// Every text-form dialect and the reader that finds them, loaded on first use by
// `loadTextToolCallDialects` (its own chunk: an app without tools never loads it).
import { splitGluedCalls } from '../glued-tool-calls.js';
import { type ModelFamily, modelFamily } from '../model-family.js';
import { ToolCallMarkupParser } from '../tool-call-markup-parser.js';
import { apertusDialect } from './apertus-dialect.js';
import { deepseekDialect } from './deepseek-dialect.js';
import { deepseekDsmlDialect } from './deepseek-dsml-dialect.js';
import { functoolsAnswer } from './functools-answer.js';
import { gemma4BareAnswer, gemma4Dialect } from './gemma4-dialect.js';
import { gemmaToolCodeDialect } from './gemma-tool-code-dialect.js';
import { graniteDialect } from './granite-dialect.js';
import { hermesDialect } from './hermes-dialect.js';
import { kimiK2Dialect } from './kimi-k2-dialect.js';
import { lfm2Dialect } from './lfm2-dialect.js';
import { llamaJsonAnswer, llamaPythonTagDialect } from './llama-json-dialect.js';
import { minimaxM2Dialect } from './minimax-m2-dialect.js';
import { mistralDialect } from './mistral-dialect.js';
import { llama4PythonStartDialect, pythonicAnswer } from './pythonic-answer.js';
import { qwen3CoderBareDialect } from './qwen3-coder-dialect.js';
import { seedOssBareDialect, seedOssDialect } from './seed-oss-dialect.js';
import type { DialectList, TextToolCallDialects } from './text-tool-call-dialect.js';

/** The order with no family known. */
const dialects: DialectList = {
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
 * Each family's own forms, moved to the front when the model is known: where two dialects
 * share an opener (`<function=`) or two whole-answer readings parse, the family's wins.
 * Seed-OSS's bare `<function=` reads Python-style values, which Qwen's does not.
 */
const PREFERRED: Record<ModelFamily, Partial<DialectList>> = {
  apertus: { tagged: [apertusDialect] },
  deepseek: { tagged: [deepseekDialect, deepseekDsmlDialect] },
  gemma: { tagged: [gemma4Dialect, gemmaToolCodeDialect], wholeAnswer: [gemma4BareAnswer] },
  glm: { tagged: [hermesDialect] },
  granite: { tagged: [graniteDialect] },
  kimi: { tagged: [kimiK2Dialect] },
  lfm2: { tagged: [lfm2Dialect], wholeAnswer: [pythonicAnswer] },
  llama: {
    tagged: [llamaPythonTagDialect, llama4PythonStartDialect],
    wholeAnswer: [llamaJsonAnswer, pythonicAnswer],
  },
  minimax: { tagged: [minimaxM2Dialect] },
  mistral: { tagged: [mistralDialect] },
  phi: { tagged: [graniteDialect], wholeAnswer: [functoolsAnswer] },
  qwen: { tagged: [hermesDialect, qwen3CoderBareDialect] },
  'seed-oss': { tagged: [seedOssDialect, seedOssBareDialect] },
};

const ordered = new Map<ModelFamily, DialectList>();

/** The dialects in the order for `family`: its own first, then the rest as usual. */
function dialectsFor(family: ModelFamily | undefined): DialectList {
  if (family === undefined) return dialects;
  let list = ordered.get(family);
  if (list === undefined) {
    const preferred = PREFERRED[family];
    const first = <T>(mine: readonly T[] = [], all: readonly T[]) => [
      ...mine,
      ...all.filter((dialect) => !mine.includes(dialect)),
    ];
    list = {
      tagged: first(preferred.tagged, dialects.tagged),
      wholeAnswer: first(preferred.wholeAnswer, dialects.wholeAnswer),
    };
    ordered.set(family, list);
  }
  return list;
}

/**
 * Every dialect: tagged forms count wherever they start outside a code fence; untagged ones
 * only as the whole answer. With the model's name, its family's forms are tried first.
 */
export const ALL_DIALECTS: TextToolCallDialects = {
  createReader: (toolNames, sink, options = {}) =>
    new ToolCallMarkupParser(
      toolNames,
      sink,
      dialectsFor(options.model === undefined ? undefined : modelFamily(options.model)),
    ),
  splitGluedCalls,
};
