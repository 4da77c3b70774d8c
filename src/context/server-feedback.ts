/**
 * What the server's answers teach: calibration and silent truncation from reported usage, the
 * window a refusal names, and the fix to give for each server.
 */
import { AgentError } from '../errors/agent-error.js';
import type { ChatBackend } from '../types/chat-request.js';
import type { Usage } from '../types/usage.js';
import type { FittedRequest } from './context-manager.js';
import type { ContextServer } from './probe-context-window.js';
import { stateOf } from './context-state.js';

/** The smallest window a local server cuts a prompt to (Ollama's oldest default), and half of it. */
const MIN_WINDOW = 2_048;
const MIN_CUT_PROMPT = MIN_WINDOW / 2;

/**
 * Learns from a response's reported usage: calibrates the estimate, and detects a prompt the
 * server cut silently (Ollama answers 200 with the truncated count) — reported as
 * `CONTEXT_OVERFLOW` with the fix through `report`, and the next request fitted to the
 * window it revealed.
 */
export function observeUsage(
  backend: ChatBackend,
  fitted: FittedRequest,
  usage: Usage | undefined,
  report: (error: AgentError) => void,
): void {
  if (!usage || usage.estimated === true || usage.promptTokens <= 0) return;
  const state = stateOf(backend);
  const reported = usage.promptTokens;
  const estimate = fitted.promptTokens;
  // A cut keeps at least half of the window, and no server in use cuts to less than 2,048: a
  // smaller count is a server that reports usage loosely (fakes, proxies), not a truncation —
  // believing it would shrink every later request to nothing.
  const truncated =
    reported >= MIN_CUT_PROMPT &&
    ((reported === fitted.contextWindow && estimate > reported) ||
      (reported < estimate * 0.5 && estimate - reported > 256));
  if (truncated) {
    // The server kept at most its window; Ollama keeps about half of it after a cut.
    const window = Math.max(MIN_WINDOW, 2 ** Math.ceil(Math.log2(reported)));
    state.learned = Math.min(state.learned ?? Infinity, window);
    delete state.numCtx;
    report(
      new AgentError(
        'CONTEXT_OVERFLOW',
        `The server cut the prompt silently: it reported ${reported} prompt tokens for about ${estimate} sent (window ${fitted.contextWindow}). The next requests are fitted to ${window} tokens.\n${fixFor(fitted.server)}`,
        {
          context: {
            promptTokens: reported,
            estimatedTokens: estimate,
            contextWindow: window,
            fix: fixFor(fitted.server),
          },
        },
      ),
    );
    return;
  }
  const ratio = reported / (estimate / state.scale);
  if (Number.isFinite(ratio)) {
    state.scale = Math.min(3, Math.max(0.5, state.scale * 0.5 + ratio * 0.5));
    state.calibrated = true;
  }
}

/** Learns the window a refusal names ("available context size (4096 tokens)", "maximum context length is 8192 tokens"). */
export function observeRefusal(backend: ChatBackend, message: string): void {
  // WebLLM: "Prompt tokens exceed context window size: …; context window size: 4096".
  const named =
    /context size \((\d+) tokens\)|maximum context length is (\d+) tokens|context window size: (\d+)/i.exec(
      message,
    );
  const window = Number(named?.[1] ?? named?.[2] ?? named?.[3]);
  if (window > 0) stateOf(backend).learned = Math.min(stateOf(backend).learned ?? Infinity, window);
}

/** How to give the model a larger window, on the server in use. */
export function fixFor(server: ContextServer | undefined): string {
  switch (server) {
    case 'ollama':
      return 'Ollama: raise the window with OLLAMA_CONTEXT_LENGTH (or a Modelfile num_ctx), or use api: "ollama", which sends options.num_ctx.';
    case 'llama.cpp':
      return 'llama.cpp: start llama-server with a larger --ctx-size (-c).';
    case 'vllm':
      return 'vLLM: start it with a larger --max-model-len.';
    case 'lmstudio':
      return 'LM Studio: load the model with a larger context length.';
    case undefined:
      return 'Give the model a larger context window on the server, lower maxTokens, or start a new conversation.';
  }
}

export function overflow(
  server: ContextServer | undefined,
  window: number,
  promptTokens: number,
  why: string,
): AgentError {
  const fix = fixFor(server);
  return new AgentError(
    'CONTEXT_OVERFLOW',
    `The conversation (about ${promptTokens} tokens) does not fit the context window of ${window} tokens: ${why}.\n${fix}`,
    { context: { promptTokens, contextWindow: window, fix } },
  );
}
