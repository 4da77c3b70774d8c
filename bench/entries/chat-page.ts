// What a page that shows a persistent agent chat ships: `<agent-chat>` with the runtime, a tool
// and the IndexedDB store. marked + DOMPurify load as their own chunk when the first answer shows.
import '../../components/index.js';

export { Client, indexedDBHistory, tool } from '../../src/index.js';
