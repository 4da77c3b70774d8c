// What a page that shows a persistent agent chat ships: the runtime, `<agent-chat>` (with
// markdown and the sanitiser) and the IndexedDB store. Bundled only for its size.
import '../../components/index.js';

export { Client, indexedDBHistory } from '../../src/index.js';
