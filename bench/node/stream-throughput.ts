import { z } from 'zod';
import { createFetchBackend } from '../../src/backend/fetch-backend.js';
import { query } from '../../src/loop/query.js';
import { aggregateStream } from '../../src/stream/aggregate-stream.js';
import { ALL_DIALECTS } from '../../src/stream/dialects/index.js';
import { tool } from '../../src/tools/tool.js';
import type { ChatRequest } from '../../src/types/chat-request.js';
import { checked, info, type Figure } from '../support/figure.js';
import { median } from '../support/stats.js';
import {
  inMemoryFetch,
  sliceBody,
  textStream,
  toolCallStream,
  type Slicing,
  type SseFixture,
} from '../support/sse-fixture.js';

const BASE_URL = 'http://127.0.0.1:11434/v1';
const TOOL_NAME = 'get_weather';
const REQUEST: ChatRequest = {
  model: 'qwen3:4b',
  messages: [{ role: 'user', content: 'Go' }],
  stream: true,
};
/** Rounds per stream: the small tool-call stream gets more, to warm the JIT and outvote noise. */
const ROUNDS = {
  text: { warmup: 5, repeat: 25 },
  tools: { warmup: 20, repeat: 60 },
  perFrame: { warmup: 2, repeat: 5 },
};
type Rounds = (typeof ROUNDS)[keyof typeof ROUNDS];

/** Reads the whole stream once; returns what it counted (text characters + calls), checked against the fixture. */
type Reader = (fetch: typeof globalThis.fetch) => Promise<number>;

/**
 * The floor: what any client must do at least — fetch, decode, split lines, JSON.parse each
 * `data:` line — with no SDK. Returns the number of frames parsed.
 */
const floor: Reader = async (fetch) => {
  const response = await fetch(`${BASE_URL}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(REQUEST),
  });
  if (response.body === null) throw new Error('bench fetch returned no body');
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let parsed = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    buffer += decoder.decode(read.value, { stream: true });
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('data: ')) continue;
      const data = line.slice(6);
      if (data === '[DONE]') parsed++;
      else if (JSON.parse(data) !== null) parsed++;
    }
  }
  return parsed;
};

/** The real transport and aggregator. Returns the characters of text plus the tool_use events. */
const transportAndAggregator: Reader = async (fetch) => {
  const backend = createFetchBackend({ baseURL: BASE_URL, fetch });
  const chunks = await backend.chat.completions.create(REQUEST, {});
  const stream = aggregateStream(chunks, { toolNames: new Set([TOOL_NAME]) });
  let count = 0;
  for (let step = await stream.next(); step.done !== true; step = await stream.next()) {
    if (step.value.type === 'text') count += step.value.text.length;
    if (step.value.type === 'tool_use') count++;
  }
  return count;
};

/** The same with every text-form dialect loaded, as the loop reads a response when it has tools. */
const withDialects: Reader = async (fetch) => {
  const backend = createFetchBackend({ baseURL: BASE_URL, fetch });
  const chunks = await backend.chat.completions.create(REQUEST, {});
  const stream = aggregateStream(chunks, {
    toolNames: new Set([TOOL_NAME]),
    dialects: ALL_DIALECTS,
  });
  let count = 0;
  for (let step = await stream.next(); step.done !== true; step = await stream.next()) {
    if (step.value.type === 'text') count += step.value.text.length;
    if (step.value.type === 'tool_use') count++;
  }
  return count;
};

const weather = tool({
  name: TOOL_NAME,
  description: 'Weather forecast for a city',
  input: z.object({
    city: z.string(),
    unit: z.enum(['celsius', 'fahrenheit']),
    days: z.number(),
    detail: z.boolean(),
  }),
});

/** `query()` end to end (Client, loop, history, validation of each call) over the same fetch. Returns text characters plus tool_use events. */
const endToEnd: Reader = async (fetch) => {
  let count = 0;
  for await (const event of query('Go', {
    model: 'qwen3:4b',
    baseURL: BASE_URL,
    fetch,
    tools: [weather],
  })) {
    if (event.type === 'text') count += event.text.length;
    if (event.type === 'tool_use') count++;
  }
  return count;
};

interface Comparison {
  floorMs: number;
  sdkMs: number;
  dialectsMs: number;
  endToEndMs: number;
}

/** Runs floor, SDK and query() on the same bytes, interleaved, and returns the medians. */
async function compare(
  fixture: SseFixture,
  slicing: Slicing,
  { warmup, repeat }: Rounds,
): Promise<Comparison> {
  const pieces = sliceBody(fixture.bytes, slicing);
  const fetch = inMemoryFetch(pieces);
  const readers = [
    { key: 'floorMs', read: floor, expected: fixture.frames },
    { key: 'sdkMs', read: transportAndAggregator, expected: fixture.expected },
    { key: 'dialectsMs', read: withDialects, expected: fixture.expected },
    { key: 'endToEndMs', read: endToEnd, expected: fixture.expected },
  ] as const;
  const samples: Record<keyof Comparison, number[]> = {
    floorMs: [],
    sdkMs: [],
    dialectsMs: [],
    endToEndMs: [],
  };
  for (let round = 0; round < warmup + repeat; round++) {
    // Rotate the order so drift (JIT, heap growth, a neighbour's load) hits every reader alike.
    const order = [
      ...readers.slice(round % readers.length),
      ...readers.slice(0, round % readers.length),
    ];
    for (const { key, read, expected } of order) {
      const start = performance.now();
      const count = await read(fetch);
      const elapsed = performance.now() - start;
      if (count !== expected)
        throw new Error(`${key} counted ${count} of ${expected} in "${fixture.name}"`);
      if (round >= warmup) samples[key].push(elapsed);
    }
  }
  return {
    floorMs: median(samples.floorMs),
    sdkMs: median(samples.sdkMs),
    dialectsMs: median(samples.dialectsMs),
    endToEndMs: median(samples.endToEndMs),
  };
}

/**
 * How long a model known to start mid-thought holds a plain answer with no tag before its
 * first text shows: deltas and characters read first (the hold is counted in characters, so
 * it does not depend on timing), and the wait that means at 50 tokens/s.
 */
async function midThoughtHold(fixture: SseFixture): Promise<Figure> {
  const fetch = inMemoryFetch(sliceBody(fixture.bytes, { kind: 'frames' }));
  const backend = createFetchBackend({ baseURL: BASE_URL, fetch });
  const chunks = await backend.chat.completions.create(REQUEST, {});
  let deltas = 0;
  let characters = 0;
  let shownAfter: { deltas: number; characters: number } | undefined;
  const stream = aggregateStream(
    (async function* () {
      for await (const chunk of chunks) {
        deltas++;
        yield chunk;
      }
    })(),
    { toolNames: new Set([TOOL_NAME]), dialects: ALL_DIALECTS, startsInReasoning: true },
  );
  for (let step = await stream.next(); step.done !== true; step = await stream.next()) {
    if (step.value.type !== 'text') continue;
    characters += step.value.text.length;
    shownAfter ??= { deltas: deltas - 1, characters };
  }
  if (shownAfter === undefined || characters !== fixture.expected)
    throw new Error('the mid-thought hold lost text');
  const tokens = shownAfter.deltas; // one token per delta, as local servers stream
  return info({
    id: 'stream.text.mid-thought-hold',
    label: 'mid-thought hold: text deltas read before a tag-less answer shows',
    value: tokens,
    unit: 'deltas',
    note: `first text event carried ${shownAfter.characters} characters; at 50 tokens/s the answer starts ${((tokens / 50) * 1000).toFixed(0)} ms later than without the hold`,
  });
}

/**
 * The aggregator by itself — already parsed chunks, no transport — with and without every
 * text-form dialect, interleaved: what the dialects cost on an answer with no markup (issue
 * 28 asks that it stay within 5 % of the figure before the 2026 families).
 */
async function aggregatorAlone(deltas: number): Promise<Figure> {
  const pieces = [' The', ' quick', ' brown', ' fox', ',', ' é', ' 🦊', '\n'];
  const chunks: unknown[] = [
    { choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] },
  ];
  let expected = 0;
  for (let index = 0; index < deltas; index++) {
    const content = pieces[index % pieces.length] ?? '';
    expected += content.length;
    chunks.push({ choices: [{ index: 0, delta: { content }, finish_reason: null }] });
  }
  chunks.push({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
  const read = async (withDialects: boolean) => {
    const stream = aggregateStream(
      (async function* () {
        for (const chunk of chunks) yield await Promise.resolve(chunk);
      })(),
      { toolNames: new Set([TOOL_NAME]), ...(withDialects ? { dialects: ALL_DIALECTS } : {}) },
    );
    let count = 0;
    for (let step = await stream.next(); step.done !== true; step = await stream.next())
      if (step.value.type === 'text') count += step.value.text.length;
    if (count !== expected)
      throw new Error(`the aggregator read ${count} of ${expected} characters`);
  };
  const samples = { with: [] as number[], without: [] as number[] };
  for (let round = 0; round < 70; round++) {
    for (const withDialects of round % 2 === 0 ? [true, false] : [false, true]) {
      const start = performance.now();
      await read(withDialects);
      if (round >= 10) samples[withDialects ? 'with' : 'without'].push(performance.now() - start);
    }
  }
  return info({
    id: 'stream.text.aggregator-dialects',
    label: `aggregateStream alone, ${deltas} parsed text deltas, every text-form dialect loaded`,
    value: median(samples.with),
    unit: 'ms',
    note: `${median(samples.without).toFixed(1)} ms without dialects; median of 60 after 10 warm-ups, interleaved`,
  });
}

/** Figure 1: stream processing time against the no-SDK floor, for a text and a tool-call stream. */
export async function streamThroughput(): Promise<Figure[]> {
  const figures: Figure[] = [];
  const text = textStream(20_000);
  const fixtures = [text, toolCallStream(200, TOOL_NAME)];
  const fixed: Slicing = { kind: 'fixed', size: 4096 };
  for (const fixture of fixtures) {
    const key = fixture === text ? 'text' : 'tools';
    const rounds = ROUNDS[key];
    const result = await compare(fixture, fixed, rounds);
    const kib = (fixture.bytes.length / 1024).toFixed(0);
    figures.push(
      info({
        id: `stream.${key}.floor`,
        label: `stream ${fixture.name}: floor (fetch+decode+split+JSON.parse)`,
        value: result.floorMs,
        unit: 'ms',
        note: `${kib} KiB, ${fixture.frames} frames, 4 KiB reads, median of ${rounds.repeat} after ${rounds.warmup} warm-ups`,
      }),
      info({
        id: `stream.${key}.sdk`,
        label: `stream ${fixture.name}: createFetchBackend + aggregateStream`,
        value: result.sdkMs,
        unit: 'ms',
      }),
      info({
        id: `stream.${key}.dialects-ratio`,
        label: `stream ${fixture.name}: aggregateStream with every text-form dialect / floor`,
        value: result.dialectsMs / result.floorMs,
        unit: '×',
        note: `${result.dialectsMs.toFixed(1)} ms with ALL_DIALECTS, ${result.sdkMs.toFixed(1)} ms without`,
      }),
      checked({
        id: `stream.${key}.ratio`,
        label: `stream ${fixture.name}: SDK / floor`,
        value: result.sdkMs / result.floorMs,
        unit: '×',
        target: { op: '<=', limit: 1.3 },
      }),
      info({
        id: `stream.${key}.query-ratio`,
        label: `stream ${fixture.name}: query() end to end / floor`,
        value: result.endToEndMs / result.floorMs,
        unit: '×',
        note: `query() ${result.endToEndMs.toFixed(1)} ms (the loop, tool registry and zod validation of calls)`,
      }),
    );
  }
  figures.push(await midThoughtHold(text), await aggregatorAlone(20_000));
  // A server flushing each token on its own: one body read per frame stresses the per-read cost.
  const perFrame = await compare(text, { kind: 'frames' }, ROUNDS.perFrame);
  figures.push(
    info({
      id: 'stream.text.per-frame-ratio',
      label: `stream ${text.name}, one read per frame: SDK / floor`,
      value: perFrame.sdkMs / perFrame.floorMs,
      unit: '×',
      note: `floor ${perFrame.floorMs.toFixed(1)} ms, SDK ${perFrame.sdkMs.toFixed(1)} ms, query() ${perFrame.endToEndMs.toFixed(1)} ms; median of ${ROUNDS.perFrame.repeat}`,
    }),
  );
  return figures;
}
