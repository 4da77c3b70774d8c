import { errorMessage, isAgentError } from '../errors/agent-error.js';
import type { SandboxAnswer, SandboxRequest } from '../tools/javascript-sandbox-protocol.js';
import type { SandboxEngine } from './sandbox-engine.js';
import { outOfMemory } from './sandbox-error.js';
import { buildSandboxAnswer } from './sandbox-result.js';
import { SandboxRun } from './sandbox-run.js';

/**
 * Runs one request in a fresh QuickJS runtime and context on `engine`'s module, within its
 * time, memory and output limits, and disposes both. Nothing of the browser exists in that
 * context: the model's code sees the language's built-ins, `console` and timers, all
 * provided by the prelude through four host functions that take only strings and numbers.
 *
 * Resolves to the answer (errors in the code are part of it); rejects with `TOOL_TIMEOUT`
 * past `timeoutMs`, or `EXECUTION_CANCELLED` when `signal` aborts.
 */
export async function runInSandbox(
  engine: SandboxEngine,
  request: SandboxRequest,
  signal: AbortSignal,
): Promise<SandboxAnswer> {
  const module = await engine.module(request.engineUrl);
  const run = new SandboxRun({ module, engine, request, signal });
  let healthy = true;
  try {
    const outcome = await run.execute();
    return buildSandboxAnswer(outcome, run.output, request.maxOutputChars);
  } catch (error) {
    if (isAgentError(error)) throw error;
    // The engine itself failed (a native stack overflow, an allocation the glue code could
    // not make): its state is unknown, so it is neither disposed nor used again.
    healthy = false;
    engine.discard(module);
    const exhausted = engine.isExhausted(module);
    return buildSandboxAnswer(
      {
        ok: false,
        error: exhausted
          ? outOfMemory(engine.memoryLimitBytes)
          : {
              name: error instanceof Error ? error.name : 'Error',
              message: `${errorMessage(error)} (the sandbox engine failed and was restarted)`,
            },
      },
      run.output,
      request.maxOutputChars,
    );
  } finally {
    if (healthy && !run.dispose()) engine.discard(module);
  }
}
