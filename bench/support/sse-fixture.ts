/**
 * The bytes of an OpenAI-compatible `/chat/completions` SSE stream, shaped like Ollama's and
 * llama.cpp's (`data: {chunk}\n\n` frames, one delta each, `data: [DONE]` at the end), and a
 * `fetch` that answers every request with those bytes over an in-memory `ReadableStream`.
 * The SDK and the floor read the same bytes through the same fetch.
 */

/** A stream as bytes, with what reading it must produce (to check every reader saw all of it). */
export interface SseFixture {
  name: string;
  bytes: Uint8Array;
  /** `data:` frames, `[DONE]` included. */
  frames: number;
  /**
   * What reading it through the SDK must count: characters of text (text stream; the deltas
   * of one read may come as one event) or `tool_use` events (tool-call stream).
   */
  expected: number;
}

const encoder = new TextEncoder();
const MODEL = 'qwen3:4b';

function frame(
  delta: Record<string, unknown>,
  finishReason: string | null = null,
  extra = {},
): string {
  const chunk = {
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 1_760_000_000,
    model: MODEL,
    system_fingerprint: 'fp_ollama',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
    ...extra,
  };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

const WORDS = [
  'The',
  ' quick',
  ' brown',
  ' fox',
  ' jumps',
  ' over',
  ' the',
  ' lazy',
  ' dog',
  ',',
  ' and',
  ' é',
  ' 🦊',
  '\n',
];

/**
 * `deltas` text deltas (by default one word each, some multi-byte; or the given pieces,
 * cycled), a finish with usage, `[DONE]`.
 */
export function textStream(deltas: number, pieces: readonly string[] = WORDS): SseFixture {
  const parts = [frame({ role: 'assistant', content: '' })];
  let characters = 0;
  for (let index = 0; index < deltas; index++) {
    const piece = pieces[index % pieces.length] ?? '';
    characters += piece.length;
    parts.push(frame({ content: piece }));
  }
  parts.push(
    frame({}, 'stop', {
      usage: { prompt_tokens: 12, completion_tokens: deltas, total_tokens: 12 + deltas },
    }),
  );
  parts.push('data: [DONE]\n\n');
  return {
    name: `${deltas} text deltas`,
    bytes: encoder.encode(parts.join('')),
    frames: parts.length,
    expected: characters,
  };
}

/**
 * `calls` parallel tool calls, each opened by a frame with id and name and then streamed as
 * `fragments` argument pieces (as vLLM and llama.cpp do), then `finish_reason: tool_calls`.
 */
export function toolCallStream(calls: number, toolName: string, fragments = 8): SseFixture {
  const parts = [frame({ role: 'assistant', content: null })];
  for (let index = 0; index < calls; index++) {
    const id = `call_${String(index).padStart(6, '0')}`;
    parts.push(
      frame({
        tool_calls: [{ index, id, type: 'function', function: { name: toolName, arguments: '' } }],
      }),
    );
    const args = JSON.stringify({
      city: `City number ${index}`,
      unit: 'celsius',
      days: index % 7,
      detail: true,
    });
    const size = Math.ceil(args.length / fragments);
    for (let start = 0; start < args.length; start += size) {
      parts.push(
        frame({
          tool_calls: [{ index, function: { arguments: args.slice(start, start + size) } }],
        }),
      );
    }
  }
  parts.push(frame({}, 'tool_calls'));
  parts.push('data: [DONE]\n\n');
  return {
    name: `${calls} tool calls`,
    bytes: encoder.encode(parts.join('')),
    frames: parts.length,
    expected: calls,
  };
}

/** How the in-memory body hands out the bytes: fixed-size reads (split mid-frame) or one frame per read. */
export type Slicing = { kind: 'fixed'; size: number } | { kind: 'frames' };

/** Cuts `bytes` into the pieces the body stream will deliver, once, outside the timed region. */
export function sliceBody(bytes: Uint8Array, slicing: Slicing): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  if (slicing.kind === 'fixed') {
    for (let start = 0; start < bytes.length; start += slicing.size)
      pieces.push(bytes.subarray(start, start + slicing.size));
    return pieces;
  }
  // `\n\n` ends a frame; the bytes are ASCII-delimited so searching bytes is safe for UTF-8.
  let start = 0;
  for (let index = 1; index < bytes.length; index++) {
    if (bytes[index] === 10 && bytes[index - 1] === 10) {
      pieces.push(bytes.subarray(start, index + 1));
      start = index + 1;
    }
  }
  if (start < bytes.length) pieces.push(bytes.subarray(start));
  return pieces;
}

/**
 * A `fetch` that answers 200 `text/event-stream` with `pieces`, one per body read. With
 * `tick`, each piece waits for it first — in a page, a new task per read, as from a network.
 */
export function inMemoryFetch(
  pieces: readonly Uint8Array[],
  tick?: () => Promise<void>,
): typeof globalThis.fetch {
  return () => {
    let next = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const push = () => {
          const piece = pieces[next++];
          if (piece === undefined) controller.close();
          else controller.enqueue(piece);
        };
        // Synchronous without a tick: the Node figures must not pay for a promise per read.
        if (tick) return tick().then(push);
        push();
      },
    });
    return Promise.resolve(
      new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    );
  };
}
