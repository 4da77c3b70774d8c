// A tool worker for a page with no bundler: open-agent/worker from dist/.
import { exposeTools } from '../../dist/worker.js';

exposeTools({ echo: ({ text }) => `echo: ${text}` });
