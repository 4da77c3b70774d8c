/**
 * Small type guards for reading chat-completion chunks, which are wire data (`unknown`).
 * Hand-written rather than zod. (The per-chunk reads themselves are written out in
 * `ChunkAggregator.push`: a call per chunk costs in V8's interpreter.)
 */
import { isRecord } from '../types/is-record.js';

/** The string, unless it is missing, not a string, or `""` — which servers send for "not sent". */
export function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The message of an error sent inside a 200 stream (`{"error":{"message":…}}` or
 * `{"error":"…"}`), or `undefined` when the chunk carries none.
 */
export function readChunkError(error: unknown): string | undefined {
  if (error === undefined || error === null || error === false || error === '') return undefined;
  if (typeof error === 'string') return error;
  if (isRecord(error)) {
    const message = nonEmptyString(error.message) ?? nonEmptyString(error.error);
    if (message !== undefined) return message;
  }
  try {
    return JSON.stringify(error);
  } catch {
    return 'an error object that cannot be serialised'; // only a cyclic object from a non-JSON source
  }
}

/** Where {@link readContentParts} sends text and reasoning. */
export interface ContentPartSink {
  text(piece: string): void;
  reasoning(piece: string): void;
}

/**
 * Reads `delta.content` sent as an array of parts (Magistral): `{type:"text", text}` is
 * text, `{type:"thinking", thinking:[{type:"text", text}]}` (or `thinking: "…"`) is
 * reasoning. Other part types are ignored.
 */
export function readContentParts(parts: readonly unknown[], sink: ContentPartSink): void {
  for (const part of parts) {
    if (typeof part === 'string') {
      if (part !== '') sink.text(part);
      continue;
    }
    if (!isRecord(part)) continue;
    if (part.type === 'text') {
      const text = nonEmptyString(part.text);
      if (text !== undefined) sink.text(text);
    } else if (part.type === 'thinking') {
      const thinking = part.thinking;
      if (typeof thinking === 'string') {
        if (thinking !== '') sink.reasoning(thinking);
      } else if (Array.isArray(thinking)) {
        for (const inner of thinking as readonly unknown[]) {
          // idem
          const text =
            typeof inner === 'string'
              ? inner
              : isRecord(inner)
                ? nonEmptyString(inner.text)
                : undefined;
          if (text !== undefined && text !== '') sink.reasoning(text);
        }
      }
    }
  }
}
