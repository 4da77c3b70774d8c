import { exposeTools } from '../../../src/worker/index.js';

// An instant tool: the round trip measured is the RPC, not the work.
exposeTools({ echo: (input) => input });
