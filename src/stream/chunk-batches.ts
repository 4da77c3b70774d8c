import { CHUNK_BATCHES } from '../types/chat-request.js';

export { CHUNK_BATCHES };

/**
 * A chunk source that can hand out whole batches. Iterating the batches must give the
 * same chunks, in the same order, as iterating the source itself; both share one
 * request, so a consumer uses one or the other.
 * @internal
 */
export interface ChunkBatchSource {
  [CHUNK_BATCHES](): AsyncIterator<readonly unknown[]>;
}

/** True when `source` offers {@link CHUNK_BATCHES}. */
export function isChunkBatchSource<T extends object>(source: T): source is T & ChunkBatchSource {
  return typeof (source as Partial<ChunkBatchSource>)[CHUNK_BATCHES] === 'function'; // read, then checked
}
