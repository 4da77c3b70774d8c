/**
 * The worker `javascriptTool` runs the model's code in. The worker itself is the trusted
 * side: it runs no model code in its own JavaScript realm. Each run gets a fresh QuickJS
 * runtime and context (src/worker/sandbox-run.ts) inside a WebAssembly engine whose memory
 * is capped; the model's code can reach only what that context is given — no browser API,
 * no `postMessage`, nothing of this worker. Spawned by src/tools/javascript-tool.ts (as a
 * module worker the bundler emits as its own chunk).
 */
import { AgentError } from '../errors/agent-error.js';
import { parseSandboxRequest, SANDBOX_TOOL_NAME } from '../tools/javascript-sandbox-protocol.js';
import { exposeTools } from './expose-tools.js';
import { SandboxEngine } from './sandbox-engine.js';
import { runInSandbox } from './run-in-sandbox.js';

/** One engine per memory limit (a tool's worker normally sees one). */
const engines = new Map<number, SandboxEngine>();

exposeTools({
  [SANDBOX_TOOL_NAME]: (input, { signal }) => {
    const request = parseSandboxRequest(input);
    if (!request)
      throw new AgentError(
        'INVALID_TOOL_INPUT',
        'The JavaScript sandbox received a malformed request',
      );
    let engine = engines.get(request.memoryLimitBytes);
    if (!engine) {
      engine = new SandboxEngine(request.memoryLimitBytes);
      engines.set(request.memoryLimitBytes, engine);
    }
    return runInSandbox(engine, request, signal);
  },
});
