import { CHUNK_BATCHES } from '../types/chat-request.js';

/** What {@link chunkStream} returns: chunks one by one, or (for `aggregateStream`) per body read. */
export interface ChunkStream extends AsyncIterable<unknown> {
  [CHUNK_BATCHES](): AsyncIterator<readonly unknown[]>;
}

/**
 * The fetch transport's answer to `create()`: iterating it yields each chunk; the
 * aggregator instead asks `[CHUNK_BATCHES]()` for one array per body read, which spares
 * an await per chunk. Both views share one request, which an async generator starts only
 * when first asked for a batch — like the generator this replaces, the stream can be read once.
 */
export function chunkStream(batches: AsyncGenerator<readonly unknown[]>): ChunkStream {
  return {
    [CHUNK_BATCHES]: () => batches,
    async *[Symbol.asyncIterator]() {
      for await (const batch of batches) yield* batch;
    },
  };
}
