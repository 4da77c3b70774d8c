// An app with a Client that keeps its conversation in IndexedDB. Like an app's main.ts it exports
// nothing and hands what it imports to the page.
import { Client, indexedDBHistory } from '../../src/index.js';

Object.assign(globalThis, { openAgent: { Client, indexedDBHistory } });
