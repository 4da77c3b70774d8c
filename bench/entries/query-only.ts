// An app that only streams answers: what tree-shaking leaves of the runtime. Bundled only for its size.
export { query } from '../../src/index.js';
