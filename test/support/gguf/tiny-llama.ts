import { type GgufTensor, writeGguf } from './gguf-writer.js';
import { seededRandom } from '../seeded-random.js';

/**
 * A tiny random-weight llama model as GGUF bytes (~395 KB), for running the real llama.cpp
 * engine (wllama) in tests with no download: 64 wide, 2 layers, 4 heads, FFN 128, F32 weights
 * from a seeded generator, a byte-level BPE vocab of printable ASCII, tab and newline plus a
 * few merges and the ChatML control tokens, and a ChatML chat template. Its output is
 * gibberish, but every llama.cpp path (streaming, grammar/JSON-schema sampling, context
 * limits, abort) runs for real. The vocab stays ASCII: a random model emitting bytes
 * 0x80–0xFF writes invalid UTF-8, which breaks the engine's JSON.
 *
 * Whitespace tokens are held down: llama.cpp's JSON grammar admits up to 22 whitespace
 * characters between two JSON tokens, and a random model picks them about 3 times in 4, so
 * its constrained output would be mostly indentation and run out of `max_tokens`. Residual
 * dimension 0 is a constant (set in every token's embedding; no attention or FFN output row
 * writes it), and the output rows of tab, newline and space weigh it negatively — a bias.
 */
export function tinyLlamaGguf(
  options: {
    seed?: number;
    contextLength?: number;
    /** Hold the end tokens down too, so generation runs to `max_tokens` (for benchmarks). */
    endless?: boolean;
    /**
     * Lift one single-character token by this weight of the constant feature (≈ 7 logits per
     * unit). `{ token: 't', weight: 0.32 }` makes a constrained answer open `{"tool_calls"` more
     * often than `{"answer"`: a model that calls tools, but not always.
     */
    favour?: { token: string; weight: number };
  } = {},
): Uint8Array {
  const random = seededRandom(options.seed ?? 1);
  const { tokens, types, merges, special, whitespace } = vocabulary();
  const nEmbd = 64;
  const nFf = 128;
  const nHead = 4;
  const nLayer = 2;
  const nVocab = tokens.length;
  const weights = (name: string, dims: number[], scale = 0.08): GgufTensor => ({
    name,
    dims,
    data: Float32Array.from(
      { length: dims.reduce((a, b) => a * b, 1) },
      () => (random() * 2 - 1) * scale,
    ),
  });
  const ones = (name: string): GgufTensor => ({
    name,
    dims: [nEmbd],
    data: new Float32Array(nEmbd).fill(1),
  });
  // ggml order: [ne0, ne1] is ne1 rows of ne0 values; a matrix's output j is row j.
  const embeddings = weights('token_embd.weight', [nEmbd, nVocab], 1);
  for (let token = 0; token < nVocab; token++) embeddings.data[token * nEmbd] = BIAS_FEATURE;
  const tensors: GgufTensor[] = [embeddings];
  for (let layer = 0; layer < nLayer; layer++) {
    const block = `blk.${layer}`;
    const attentionOutput = weights(`${block}.attn_output.weight`, [nEmbd, nEmbd]);
    attentionOutput.data.fill(0, 0, nEmbd);
    const down = weights(`${block}.ffn_down.weight`, [nFf, nEmbd]);
    down.data.fill(0, 0, nFf);
    tensors.push(
      ones(`${block}.attn_norm.weight`),
      weights(`${block}.attn_q.weight`, [nEmbd, nEmbd]),
      weights(`${block}.attn_k.weight`, [nEmbd, nEmbd]),
      weights(`${block}.attn_v.weight`, [nEmbd, nEmbd]),
      attentionOutput,
      ones(`${block}.ffn_norm.weight`),
      weights(`${block}.ffn_gate.weight`, [nEmbd, nFf]),
      weights(`${block}.ffn_up.weight`, [nEmbd, nFf]),
      down,
    );
  }
  const output = weights('output.weight', [nEmbd, nVocab], 0.5);
  for (let token = 0; token < nVocab; token++) output.data[token * nEmbd] = 0;
  for (const token of whitespace) output.data[token * nEmbd] = -3;
  if (options.favour) {
    const token = tokens.indexOf(byteSymbol(options.favour.token.charCodeAt(0)));
    if (token < 0 || options.favour.token.length !== 1)
      throw new Error(`favour: "${options.favour.token}" is not a one-character token`);
    output.data[token * nEmbd] = options.favour.weight;
  }
  if (options.endless === true)
    for (const token of [special.imEnd, special.endOfText]) output.data[token * nEmbd] = -3;
  tensors.push(ones('output_norm.weight'), output);
  return writeGguf(
    {
      'general.architecture': { type: 'string', value: 'llama' },
      'general.name': { type: 'string', value: 'tiny-random-llama' },
      'llama.context_length': { type: 'uint32', value: options.contextLength ?? 4096 },
      'llama.embedding_length': { type: 'uint32', value: nEmbd },
      'llama.block_count': { type: 'uint32', value: nLayer },
      'llama.feed_forward_length': { type: 'uint32', value: nFf },
      'llama.attention.head_count': { type: 'uint32', value: nHead },
      'llama.attention.head_count_kv': { type: 'uint32', value: nHead },
      'llama.rope.dimension_count': { type: 'uint32', value: nEmbd / nHead },
      'llama.attention.layer_norm_rms_epsilon': { type: 'float32', value: 1e-5 },
      'llama.vocab_size': { type: 'uint32', value: nVocab },
      'tokenizer.ggml.model': { type: 'string', value: 'gpt2' },
      'tokenizer.ggml.pre': { type: 'string', value: 'default' },
      'tokenizer.ggml.tokens': { type: 'string[]', value: tokens },
      'tokenizer.ggml.token_type': { type: 'int32[]', value: types },
      'tokenizer.ggml.merges': { type: 'string[]', value: merges },
      'tokenizer.ggml.bos_token_id': { type: 'uint32', value: special.imStart },
      'tokenizer.ggml.eos_token_id': { type: 'uint32', value: special.imEnd },
      'tokenizer.ggml.padding_token_id': { type: 'uint32', value: special.endOfText },
      'tokenizer.ggml.add_bos_token': { type: 'bool', value: false },
      'tokenizer.chat_template': { type: 'string', value: CHATML },
    },
    tensors,
  );
}

/** The constant residual feature that carries the whitespace bias. */
const BIAS_FEATURE = 10;

/** ChatML, reading only each message's role and text content. */
const CHATML =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

/** GPT-2's byte-to-unicode map for the bytes we use: space → Ġ, newline → Ċ, tab → ĉ. */
function byteSymbol(byte: number): string {
  if (byte === 0x20) return '\u0120';
  if (byte === 0x0a) return '\u010a';
  if (byte === 0x09) return '\u0109';
  return String.fromCharCode(byte);
}

const MERGES = [
  ['\u0120', 't'],
  ['h', 'e'],
  ['\u0120t', 'he'],
  ['i', 'n'],
  ['e', 'r'],
  ['a', 'n'],
  ['o', 'n'],
  ['\u0120', 'a'],
  ['r', 'e'],
  ['a', 't'],
  ['"', ':'],
  ['e', 's'],
  ['o', 'r'],
  ['\u0120', 's'],
  ['\u0120', 'w'],
] as const;

function vocabulary(): {
  tokens: string[];
  types: number[];
  merges: string[];
  special: { imStart: number; imEnd: number; endOfText: number };
  whitespace: number[];
} {
  const tokens: string[] = [];
  const types: number[] = [];
  const add = (token: string, type: number) => {
    tokens.push(token);
    types.push(type);
    return tokens.length - 1;
  };
  const whitespace = [0x09, 0x0a].map((byte) => add(byteSymbol(byte), 1));
  for (let byte = 0x20; byte <= 0x7e; byte++) {
    const token = add(byteSymbol(byte), 1);
    if (byte === 0x20) whitespace.push(token);
  }
  for (const [left, right] of MERGES) add(left + right, 1);
  const endOfText = add('<|endoftext|>', 3);
  const imStart = add('<|im_start|>', 3);
  const imEnd = add('<|im_end|>', 3);
  return {
    tokens,
    types,
    merges: MERGES.map(([left, right]) => `${left} ${right}`),
    special: { imStart, imEnd, endOfText },
    whitespace,
  };
}
