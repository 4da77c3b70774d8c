// An app that only streams answers. Like an app's main.ts it exports nothing: it hands what it
// imports to the page (a global here, an event handler in an app), so bundlers keep exactly that.
import { query } from '../../src/index.js';

Object.assign(globalThis, { openAgent: { query } });
