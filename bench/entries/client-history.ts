// An app with a Client that keeps its conversation in IndexedDB. Bundled only for its size.
export { Client, indexedDBHistory } from '../../src/index.js';
