import type { createFetchBackend } from '../backend/fetch-backend.js';
import type { createSSEChunkReader } from '../backend/sse-chunk-reader.js';
import type { query } from '../loop/query.js';
import type { tool } from '../tools/tool.js';

/**
 * The runtime's own functions the lazy model code uses, handed to it by the small entry
 * functions (`localModels`, `checkServer`) instead of imported: a lazy chunk that imported
 * these first-load modules would make a bundler split them off every app's first load
 * (test/size/first-load-files.test.ts).
 */
export interface ModelsRuntime {
  createSSEChunkReader: typeof createSSEChunkReader;
}

/** What `checkServer`'s lazy code needs besides {@link ModelsRuntime}. */
export interface ChecksRuntime extends ModelsRuntime {
  query: typeof query;
  tool: typeof tool;
  createFetchBackend: typeof createFetchBackend;
}
