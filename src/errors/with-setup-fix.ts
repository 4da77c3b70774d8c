import { AgentError, isAgentError } from './agent-error.js';

/**
 * `error` with the fix for a server setting no retry can get past (llama.cpp without `--jinja`,
 * an Ollama model without tools, a conversation past the context…) on a line of its own and as
 * `context.fix`, when its message names one; else `error` as it is. The table of fixes loads
 * only now, on the failure it explains: a page whose server works never ships it.
 */
export async function withSetupFix(error: unknown): Promise<unknown> {
  if (!isAgentError(error) || error.context?.fix !== undefined) return error;
  if (error.code !== 'HTTP_ERROR' && error.code !== 'STREAM_ERROR') return error;
  let fix: string | undefined;
  try {
    fix = (await import('./server-setup-hint.js')).serverSetupHint(error.message);
  } catch {
    return error; // the chunk could not load (offline): the error goes out without its fix
  }
  if (fix === undefined) return error;
  return new AgentError(error.code, `${error.message}\n${fix}`, {
    cause: error.cause,
    ...(error.status === undefined ? {} : { status: error.status }),
    context: { ...error.context, fix },
  });
}
