// What a page that shows a persistent agent chat ships: `<agent-chat>` with the runtime, a tool
// and the IndexedDB store. The markdown parser + the sanitiser load as their own chunk when the
// first answer shows. Like an app's main.ts it exports nothing and hands what it imports to the page.
import '../../components/index.js';
import { Client, indexedDBHistory, tool } from '../../src/index.js';

Object.assign(globalThis, { openAgent: { Client, indexedDBHistory, tool } });
