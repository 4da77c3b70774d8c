// An app that offers a model picker: `localModels` and `checkServer` only. Their code
// loads on first call, so the first load is the two tiny functions that import it.
import { checkServer, localModels } from '../../src/index.js';

Object.assign(globalThis, { openAgent: { localModels, checkServer } });
