// The runtime a chat page ships (Client, fetch transport, aggregator, IndexedDB store),
// without the element: bundled only for its size.
export { Client, indexedDBHistory } from '../../src/index.js';
