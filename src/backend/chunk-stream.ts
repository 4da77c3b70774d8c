import { CHUNK_BATCHES } from '../types/chat-request.js';

/** What {@link chunkStream} returns: chunks one by one, or (for `aggregateStream`) per body read. */
export interface ChunkStream extends AsyncIterable<unknown> {
  [CHUNK_BATCHES](): AsyncIterator<readonly unknown[]>;
}

/**
 * The fetch transport's answer to `create()`: iterating it yields each chunk; the
 * aggregator instead asks `[CHUNK_BATCHES]()` for one array per body read, which spares
 * an await per chunk. Both views share one request, started on first use — like the
 * generator this replaces, the stream can be read once.
 */
export function chunkStream(open: () => AsyncGenerator<readonly unknown[]>): ChunkStream {
  let batches: AsyncGenerator<readonly unknown[]> | undefined;
  const source = () => (batches ??= open());
  return {
    [CHUNK_BATCHES]: source,
    async *[Symbol.asyncIterator]() {
      for await (const batch of source()) yield* batch;
    },
  };
}
