import { AgentError, callbackFailure, errorMessage, isAbortError } from '../errors/agent-error.js';
import type { AssistantTurn, StreamEvent, ToolCallDelta } from '../stream/aggregate-stream.js';
import type * as AggregateStream from '../stream/aggregate-stream.js';
import type { ChatRequest, WaitReport } from '../types/chat-request.js';
import type { AgentEvent, StepEnd } from '../types/events.js';
import type { Usage } from '../types/usage.js';
import { withSetupFix } from '../errors/with-setup-fix.js';
import { assistantMessage, buildRequest, hasToolImages } from './call-messages.js';
import { loadTextToolCallDialects } from '../stream/text-tool-call-dialects.js';
import type { structuredAnswers } from './structured-answer.js';
import type { LoopContext } from './loop-context.js';
import type * as ContextManager from '../context/context-manager.js';
import type { FittedRequest } from '../context/context-manager.js';
import type * as ToolInputRepair from './tool-input-repair.js';
import type { ToolInputRepairs } from './tool-input-repair.js';
import type { ModelStepResult } from './model-step.js';

// What a model call does once, in plain functions: the model step (model-step.ts), a generator
// whose per-event loop gets hot, stays small, so the engine's cost to optimize it stays small
// too (a generator compiles to a state machine per await: with the whole call in it, `node
// --trace-opt` showed 130-330 ms of compiler time per fresh process, more than the runs it sped up).

/** One model call, from its request to its step_end. */
export interface ModelCall {
  context: LoopContext;
  request: ChatRequest;
  structured: ReturnType<typeof structuredAnswers> | undefined;
  fitting: typeof ContextManager | undefined;
  /** What the step_end adds (a summary call's usage: the context chunk sets it). */
  end: Partial<StepEnd>;
  toolsPrepared: Promise<void>;
  /** The fitting's answer: a summary call to run first ('summarize'), or the window not known yet. */
  fit: ReturnType<typeof ContextManager.fitStep> | undefined;
  fitted?: FittedRequest | undefined;
}

/** The call's request as built and the start of its fitting (see modelStep). */
export async function beginCall(
  context: LoopContext,
  onWaiting: ((report: WaitReport) => void) | undefined,
  count: ((usage: Usage) => void) | undefined,
): Promise<ModelCall> {
  // A live tool source (`tools: () => mcp.tools`) is read again before every call.
  context.registry.refresh();
  // What checking the tools' input needs (a user's JSON Schema: the validator) loads beside the
  // steps below, and is awaited before the request: a schema it cannot read fails this call.
  const toolsPrepared = context.registry.prepare();
  toolsPrepared.catch(() => undefined); // awaited below; no unhandled rejection meanwhile
  const format = context.options.responseFormat;
  // Structured answers: loaded only by apps that ask for them (`responseFormat`).
  const structured = format
    ? (await import('./structured-answer.js')).structuredAnswers(format)
    : undefined;
  const request =
    structured?.request(context.state, buildRequest(context)) ?? buildRequest(context);
  // The context window: fitting code loads on the first call that needs it.
  const { backend } = context.options;
  const window =
    context.options.contextWindow ?? (backend && !backend.contextWindow ? undefined : 'auto');
  const fitting =
    window === undefined ? undefined : (contextManager ?? (await loadContextManager()));
  const end: Partial<StepEnd> = {};
  return {
    context,
    request,
    structured,
    fitting,
    end,
    toolsPrepared,
    fit: fitting?.fitStep(context, request, { onWaiting, count, end }),
  };
}

/** The request as sent, once fitted: the tools prepared, tool images moved where servers take them. */
export async function requestFor(
  call: ModelCall,
  fitted: FittedRequest | undefined,
): Promise<void> {
  call.fitted = fitted;
  if (fitted) call.request = fitted.request;
  await call.toolsPrepared;
  // Tool results with images: moved where servers take them, by a module loaded on first need.
  if (hasToolImages(call.request.messages))
    call.request = (await import('./tool-result-images.js')).withToolImages(call.request, fitted);
}

/** Sends the request; its events (aggregated), and the repairs of the calls' inputs. */
export async function openEvents(
  call: ModelCall,
  onWaiting: ((report: WaitReport) => void) | undefined,
): Promise<{
  events: AsyncGenerator<StreamEvent, AssistantTurn>;
  repairs: ToolInputRepairs | undefined;
}> {
  const { context, request, fitted } = call;
  context.signal?.throwIfAborted();
  // The aggregator (every server's quirks: tool-call deltas, <think> tags, harmony channels)
  // loads with the first model call, while the request is on its way: no page pays for it
  // before it sends a prompt.
  const aggregatorLoaded = aggregator ?? loadAggregator();
  if (aggregatorLoaded instanceof Promise) aggregatorLoaded.catch(() => undefined); // awaited below
  // Tool calls written as text, in every dialect: loaded while the request is on its way.
  const hasTools = context.registry.names.size > 0;
  const dialects = hasTools ? loadTextToolCallDialects() : undefined;
  // Repairing a call's input matters only when there are tools to call: loaded beside them.
  const repairsLoaded = hasTools ? (toolInputRepair ?? loadToolInputRepair()) : undefined;
  const chunks = await context.backend.chat.completions.create(request, {
    ...(context.signal ? { signal: context.signal } : {}),
    ...(onWaiting ? { onWaiting } : {}),
  });
  const repairModule = repairsLoaded instanceof Promise ? await repairsLoaded : repairsLoaded;
  const repairs = repairModule ? new repairModule.ToolInputRepairs(context) : undefined;
  const { aggregateStream } =
    aggregatorLoaded instanceof Promise ? await aggregatorLoaded : aggregatorLoaded;
  const events = aggregateStream(chunks, {
    toolNames: context.registry.names,
    ...(dialects ? { dialects: dialects instanceof Promise ? await dialects : dialects } : {}),
    ...(context.signal ? { signal: context.signal } : {}),
    model: context.options.model,
    // What the server said (its template or capabilities, once asked): below the app's
    // `textMarkup.startsInReasoning`, above the model's name.
    startsInReasoning: fitted?.startsInReasoning,
    textMarkup: context.options.textMarkup,
    ...toolInputListener(context),
  });
  return { events, repairs };
}

/**
 * A failed or stopped call: the partial answer kept (a stopped one marked), the refusal learnt
 * from; the summary's step_end to yield, if a summary call was paid for, and the error to throw.
 */
export async function failedCall(
  call: ModelCall,
  iteration: number,
  text: string,
  error: unknown,
): Promise<{ stepEnd: AgentEvent | undefined; error: unknown }> {
  const { context, fitting, end } = call;
  const aborted = context.signal?.aborted === true || isAbortError(error);
  // A stopped answer is marked, so a reloaded conversation does not show it as complete;
  // stopped before its first word, it is stored empty for that mark (and never sent).
  if (text !== '' || aborted)
    context.append({ role: 'assistant', content: text, ...(aborted ? { stopped: true } : {}) });
  if (fitting) fitting.observeRefusal(context.backend, errorMessage(error));
  // The summary call made room for this request and was paid for (counted when it ended):
  // reported on this call's step_end, which has no usage of its own (it failed or stopped).
  const stepEnd: AgentEvent | undefined = end.summaryUsage
    ? { type: 'step_end', iteration, finishReason: 'error', ...end }
    : undefined;
  if (aborted) {
    return {
      stepEnd,
      error: new AgentError('EXECUTION_CANCELLED', 'The run was cancelled', { cause: error }),
    };
  }
  // Any backend's server errors (an openai client, WebLLM) name their fix like ours do.
  return { stepEnd, error: await withSetupFix(error) };
}

/** The call's turn stored, its usage counted and learnt from: the step_end and the step's result. */
export async function endCall(
  call: ModelCall,
  iteration: number,
  turn: AssistantTurn,
  stoppedQuietly: boolean,
): Promise<{ stepEnd: AgentEvent; result: ModelStepResult }> {
  const { context, request, fitted, fitting, end, structured } = call;
  // Servers that report no usage: counted by a module loaded the first time one is met.
  const usage =
    turn.usage ?? (await import('../context/estimate-usage.js')).estimateUsage(request, turn);
  // A short first prompt goes out before the window is asked: asked now that the server has
  // answered (and named itself), at its own endpoint only.
  const contextWindow = fitted?.provisional
    ? await fitting?.learnWindow(context.options, context.backend)
    : fitted?.contextWindow;
  // What the context meter showed is stored with the turn: a reload shows the same figures.
  // (A stop can end the stream quietly: the answer is then cut off all the same.)
  const message = assistantMessage(turn);
  if (contextWindow !== undefined && usage.promptTokens >= 0)
    message.contextUse = { promptTokens: usage.promptTokens, contextWindow };
  if (stoppedQuietly) message.stopped = true;
  context.append(message);
  if (fitted)
    fitting?.observeUsage(context.backend, fitted, turn.usage, (error) => context.report(error));
  return {
    stepEnd: {
      type: 'step_end',
      iteration,
      finishReason: turn.finishReason,
      usage,
      ...(contextWindow === undefined ? {} : { contextWindow }),
      ...end,
    },
    result: { turn, usage, answer: structured?.read(turn) },
  };
}

// Modules loaded on first use, then kept: a cached `import()` still costs a trip through the
// module loader on every model call.
let aggregator: typeof AggregateStream | undefined;
let contextManager: typeof ContextManager | undefined;
let toolInputRepair: typeof ToolInputRepair | undefined;

async function loadAggregator(): Promise<typeof AggregateStream> {
  return (aggregator = await loadPart(
    'the stream reader',
    () => import('../stream/aggregate-stream.js'),
  ));
}

async function loadContextManager(): Promise<typeof ContextManager> {
  return (contextManager = await loadPart(
    'the context window code',
    () => import('../context/context-manager.js'),
  ));
}

async function loadToolInputRepair(): Promise<typeof ToolInputRepair> {
  return (toolInputRepair = await loadPart(
    'the tool input repair',
    () => import('./tool-input-repair.js'),
  ));
}

/**
 * A chunk of ours that cannot load (the page's server is gone, or a deploy replaced the files
 * the page was built with) fails the call as a `NETWORK_ERROR` that says so, not as the
 * browser's bare TypeError. Nothing is cached: the next call tries again.
 */
async function loadPart<T>(part: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw new AgentError(
      'NETWORK_ERROR',
      `Could not load ${part} of open-agent: ${errorMessage(error)}. Reload the page if its server was restarted or redeployed.`,
      { cause: error },
    );
  }
}

/**
 * `onToolInputDelta` as the aggregator's listener. The callback is the caller's UI code:
 * its failure must not end the stream, and is reported once per model call, not per chunk.
 */
function toolInputListener(context: LoopContext): {
  onToolCallDelta?: (delta: ToolCallDelta) => void;
} {
  const callback = context.options.onToolInputDelta;
  if (callback === undefined) return {};
  let reported = false;
  return {
    onToolCallDelta: (delta) => {
      try {
        callback({
          index: delta.index,
          ...(delta.id === undefined ? {} : { toolUseId: delta.id }),
          ...(delta.name === undefined ? {} : { name: delta.name }),
          inputText: delta.arguments,
        });
      } catch (error) {
        if (reported) return;
        reported = true;
        context.report(callbackFailure('onToolInputDelta', error));
      }
    },
  };
}
