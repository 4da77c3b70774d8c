import type { ChatRequest, WaitReport } from '../types/chat-request.js';
import type { AgentEvent, StepEnd } from '../types/events.js';
import type { Usage } from '../types/usage.js';
import type { LoopContext } from '../loop/loop-context.js';
import { AgentError, errorMessage } from '../errors/agent-error.js';
import { fitRequest, type FittedRequest } from './context-manager.js';
import type * as CompactRequest from './summarize/compact-request.js';

/** What a model step hands the fitting: where a summary call's wait, usage and step_end field go. */
export interface FitStepListeners {
  /** The summary call's wait reports: the step yields `waiting` from them. */
  onWaiting?: ((report: WaitReport) => void) | undefined;
  /** Counts the summary call's usage in the run's and the client's, once it ends. */
  count?: ((usage: Usage) => void) | undefined;
  /** Filled with the step_end's `summaryUsage` when a summary call was made. */
  end: Partial<StepEnd>;
}

/**
 * A model call's request fitted to the window by `contextPolicy`. Lives in the context chunk
 * (loaded with a client's first call), so the first load keeps no branch of 'summarize': for it,
 * an async generator that loads the summarising code and yields its events
 * (`context_compacted`, the summary call's `waiting`); for the other policies, the fitted
 * request (synchronous once the window is known).
 * @example
 * let fitted = fitStep(context, request, { end: {} });
 * if ('next' in fitted) fitted = yield* fitted;
 */
export function fitStep(
  context: LoopContext,
  request: ChatRequest,
  listeners: FitStepListeners,
): FittedRequest | Promise<FittedRequest> | AsyncGenerator<AgentEvent, FittedRequest> {
  const policy = context.options.contextPolicy;
  return policy === 'summarize' || typeof policy === 'object'
    ? compactStep(context, request, listeners)
    : fitRequest(context.options, context.backend, request, context.signal);
}

async function* compactStep(
  context: LoopContext,
  request: ChatRequest,
  { onWaiting, count, end }: FitStepListeners,
): AsyncGenerator<AgentEvent, FittedRequest> {
  let summarize: typeof CompactRequest;
  try {
    summarize = await import('./summarize/compact-request.js');
  } catch (error) {
    // As model-step's own parts: a chunk that cannot load says so, not the browser's TypeError.
    throw new AgentError(
      'NETWORK_ERROR',
      `Could not load the summarising code of open-agent: ${errorMessage(error)}. Reload the page if its server was restarted or redeployed.`,
      { cause: error },
    );
  }
  return yield* summarize.compactRequest(context, request, fitRequest, {
    onWaiting,
    onUsage: (usage) => count?.((end.summaryUsage = usage)),
  });
}
