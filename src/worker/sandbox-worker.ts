/**
 * The worker `javascriptTool` runs the model's code in: no DOM, blockable globals removed
 * unless allowed, console captured, output capped. Spawned by src/tools/javascript-tool.ts
 * with `new Worker(new URL('../worker/sandbox-worker.ts', import.meta.url), { type: 'module' })`.
 */
import { AgentError } from '../errors/agent-error.js';
import { parseSandboxRequest, SANDBOX_TOOL_NAME } from '../tools/javascript-sandbox-protocol.js';
import { exposeTools } from './expose-tools.js';
import { runJavaScript } from './run-javascript.js';
import { SandboxConsole } from './sandbox-console.js';
import { buildSandboxResult } from './sandbox-result.js';
import { restrictGlobals } from './sandbox-globals.js';

// An exception thrown later by the model's code (a throwing setTimeout callback) would
// otherwise reach the page as the worker's `error` event, which restarts the worker and
// fails every call in flight. It belongs to a run that already returned: drop it.
self.addEventListener('error', (event) => event.preventDefault());

exposeTools({
  [SANDBOX_TOOL_NAME]: async (input) => {
    const request = parseSandboxRequest(input);
    if (!request)
      throw new AgentError(
        'INVALID_TOOL_INPUT',
        'The JavaScript sandbox received a malformed request',
      );
    restrictGlobals(request.allow);
    const output = new SandboxConsole(request.maxOutputChars);
    const outcome = await runJavaScript(request.code, output.console);
    return buildSandboxResult(outcome, output, request.maxOutputChars);
  },
});
