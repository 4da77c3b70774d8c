// The `<agent-chat>` page of chat-page.ts with the opt-in model picker: what a page pays for
// `<agent-model-picker>` in its header (its panel, localModels and checkServer load when it opens).
import '../../components/index.js';
import '../../components/model-picker/index.js';
import { Client, indexedDBHistory, tool } from '../../src/index.js';

Object.assign(globalThis, { openAgent: { Client, indexedDBHistory, tool } });
