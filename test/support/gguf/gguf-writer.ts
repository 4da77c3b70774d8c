/**
 * A small GGUF v3 writer (ggml's docs/gguf.md): header, metadata key/values, tensor infos,
 * then F32 tensor data, each tensor at an offset that is a multiple of `general.alignment`.
 * Enough for the test models the engine tests write themselves; runs in Node and browsers.
 */

/** A metadata value and the GGUF type it is written as. */
export type GgufValue =
  | { type: 'uint32'; value: number }
  | { type: 'int32'; value: number }
  | { type: 'float32'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'string'; value: string }
  | { type: 'string[]'; value: readonly string[] }
  | { type: 'int32[]'; value: readonly number[] };

/** An F32 tensor: `dims` in ggml order (`ne[0]` first — the contiguous one). */
export interface GgufTensor {
  name: string;
  dims: readonly number[];
  data: Float32Array;
}

// gguf_metadata_value_type
const UINT32 = 4;
const INT32 = 5;
const FLOAT32 = 6;
const BOOL = 7;
const STRING = 8;
const ARRAY = 9;
// ggml_type
const GGML_TYPE_F32 = 0;

/** The GGUF file for these metadata and tensors. */
export function writeGguf(
  metadata: Readonly<Record<string, GgufValue>>,
  tensors: readonly GgufTensor[],
  alignment = 32,
): Uint8Array {
  const out = new ByteWriter();
  out.bytes(new TextEncoder().encode('GGUF'));
  out.u32(3); // version
  out.u64(tensors.length);
  const entries = Object.entries({
    ...metadata,
    'general.alignment': { type: 'uint32', value: alignment } as GgufValue,
  });
  out.u64(entries.length);
  for (const [key, value] of entries) {
    out.string(key);
    writeValue(out, value);
  }
  let offset = 0;
  const offsets: number[] = [];
  for (const tensor of tensors) {
    const count = tensor.dims.reduce((product, dim) => product * dim, 1);
    if (count !== tensor.data.length)
      throw new Error(
        `Tensor ${tensor.name}: dims ${tensor.dims.join('x')} but ${tensor.data.length} values`,
      );
    out.string(tensor.name);
    out.u32(tensor.dims.length);
    for (const dim of tensor.dims) out.u64(dim);
    out.u32(GGML_TYPE_F32);
    out.u64(offset);
    offsets.push(offset);
    offset = align(offset + tensor.data.byteLength, alignment);
  }
  out.pad(alignment);
  const dataStart = out.length;
  for (const [index, tensor] of tensors.entries()) {
    out.pad(alignment);
    if (out.length - dataStart !== offsets[index]) throw new Error('GGUF writer: offset mismatch');
    out.bytes(new Uint8Array(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength));
  }
  return out.result();
}

function writeValue(out: ByteWriter, value: GgufValue): void {
  switch (value.type) {
    case 'uint32':
      out.u32(UINT32);
      out.u32(value.value);
      return;
    case 'int32':
      out.u32(INT32);
      out.i32(value.value);
      return;
    case 'float32':
      out.u32(FLOAT32);
      out.f32(value.value);
      return;
    case 'bool':
      out.u32(BOOL);
      out.u8(value.value ? 1 : 0);
      return;
    case 'string':
      out.u32(STRING);
      out.string(value.value);
      return;
    case 'string[]':
      out.u32(ARRAY);
      out.u32(STRING);
      out.u64(value.value.length);
      for (const item of value.value) out.string(item);
      return;
    case 'int32[]':
      out.u32(ARRAY);
      out.u32(INT32);
      out.u64(value.value.length);
      for (const item of value.value) out.i32(item);
      return;
  }
}

function align(offset: number, alignment: number): number {
  return Math.ceil(offset / alignment) * alignment;
}

/** Little-endian bytes into a growing buffer. */
class ByteWriter {
  #buffer = new Uint8Array(1 << 16);
  #view = new DataView(this.#buffer.buffer);
  length = 0;

  #reserve(bytes: number): void {
    if (this.length + bytes <= this.#buffer.length) return;
    let size = this.#buffer.length * 2;
    while (size < this.length + bytes) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.#buffer.subarray(0, this.length));
    this.#buffer = grown;
    this.#view = new DataView(grown.buffer);
  }
  u8(value: number): void {
    this.#reserve(1);
    this.#view.setUint8(this.length, value);
    this.length += 1;
  }
  u32(value: number): void {
    this.#reserve(4);
    this.#view.setUint32(this.length, value, true);
    this.length += 4;
  }
  i32(value: number): void {
    this.#reserve(4);
    this.#view.setInt32(this.length, value, true);
    this.length += 4;
  }
  f32(value: number): void {
    this.#reserve(4);
    this.#view.setFloat32(this.length, value, true);
    this.length += 4;
  }
  u64(value: number): void {
    this.#reserve(8);
    this.#view.setBigUint64(this.length, BigInt(value), true);
    this.length += 8;
  }
  string(value: string): void {
    const bytes = new TextEncoder().encode(value);
    this.u64(bytes.length);
    this.bytes(bytes);
  }
  bytes(bytes: Uint8Array): void {
    this.#reserve(bytes.length);
    this.#buffer.set(bytes, this.length);
    this.length += bytes.length;
  }
  pad(alignment: number): void {
    const padded = align(this.length, alignment);
    this.#reserve(padded - this.length);
    this.length = padded; // the buffer is zero-filled
  }
  result(): Uint8Array {
    return this.#buffer.slice(0, this.length);
  }
}
