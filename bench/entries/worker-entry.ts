// What a tools worker ships: `open-agent/worker`. Bundled only for its size.
export { exposeTools } from '../../src/worker/index.js';
