// What a tools worker ships: `open-agent/worker`. Like a worker's script it exports nothing.
import { exposeTools } from '../../src/worker/index.js';

exposeTools({ echo: (input: unknown) => input });
