import { AgentError, callbackFailure, errorMessage, isAbortError } from '../errors/agent-error.js';
import type { AssistantTurn, ToolCallDelta } from '../stream/aggregate-stream.js';
import type * as AggregateStream from '../stream/aggregate-stream.js';
import type { ChatRequest, WaitReport } from '../types/chat-request.js';
import type { AgentEvent, StepEnd } from '../types/events.js';
import type { AssistantMessage, AssistantToolCall, Message } from '../types/message.js';
import type { Usage } from '../types/usage.js';
import { withSetupFix } from '../errors/with-setup-fix.js';
import { withExtras } from './request-extras.js';
import { loadTextToolCallDialects } from '../stream/text-tool-call-dialects.js';
import type { StructuredAnswer } from './structured-answer.js';
import type { LoopContext } from './loop-context.js';
import type * as ContextManager from '../context/context-manager.js';
import type * as ToolInputRepair from './tool-input-repair.js';

/**
 * One model call's outcome: the aggregated turn and its (reported or estimated) usage. A summary
 * call made before it (`contextPolicy: 'summarize'`) is counted apart, when it ends (modelStep's
 * `count`), whatever happens to the request after it; `step_end` carries it as `summaryUsage`,
 * beside `usage` (the context meter reads its `usage.promptTokens`, this request's prompt).
 */
export interface ModelStepResult {
  turn: AssistantTurn;
  usage: Usage;
  /** With `responseFormat`, for a response without tool calls: the answer, parsed and validated. */
  answer?: StructuredAnswer | undefined;
}

/**
 * Makes one model call: streams its events, then appends the assistant message. On
 * failure or abort the partial text is kept in history and the error is rethrown
 * (an abort as `EXECUTION_CANCELLED`).
 */
export async function* modelStep(
  context: LoopContext,
  iteration: number,
  onWaiting?: (report: WaitReport) => void,
  /** Counts usage this step does not return: a summary call's, once it ends. */
  count?: (usage: Usage) => void,
): AsyncGenerator<AgentEvent, ModelStepResult> {
  // A live tool source (`tools: () => mcp.tools`) is read again before every call.
  context.registry.refresh();
  // What checking the tools' input needs (a user's JSON Schema: the validator) loads beside the
  // steps below, and is awaited before the request: a schema it cannot read fails this call.
  const toolsPrepared = context.registry.prepare();
  toolsPrepared.catch(() => undefined); // awaited below; no unhandled rejection meanwhile
  const format = context.options.responseFormat;
  // Structured answers: loaded only by apps that ask for them (`responseFormat`).
  const structured = format && (await import('./structured-answer.js')).structuredAnswers(format);
  let request = structured?.request(context.state, buildRequest(context)) ?? buildRequest(context);
  // The context window: fitting code loads on the first call that needs it.
  const { backend } = context.options;
  const window =
    context.options.contextWindow ?? (backend && !backend.contextWindow ? undefined : 'auto');
  const fitting =
    window === undefined ? undefined : (contextManager ?? (await loadContextManager()));
  // What the step_end adds (a summary call's usage: the context chunk sets it, see below).
  const end: Partial<StepEnd> = {};
  // 'summarize' (the context chunk loads the summarising code for a client that asks for it):
  // an async generator, whose summary call's wait is announced like this call's and whose usage
  // is counted (`count`) when it ends; the other policies fit synchronously once the window is known.
  let fitted = fitting?.fitStep(context, request, { onWaiting, count, end });
  if (fitted && 'next' in fitted) fitted = yield* fitted;
  // Synchronous once the window is known: no promise to wait for before every call.
  if (fitted instanceof Promise) fitted = await fitted;
  if (fitted) {
    request = fitted.request;
    if (fitted.trimmed) yield fitted.trimmed;
  }
  await toolsPrepared;
  // Tool results with images: moved where servers take them, by a module loaded on first need.
  if (hasToolImages(request.messages))
    request = (await import('./tool-result-images.js')).withToolImages(request, fitted);
  let text = '';
  let turn: AssistantTurn;
  try {
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
    for (;;) {
      const next = await events.next();
      if (next.done === true) {
        turn = repairs ? repairs.apply(next.value) : next.value;
        break;
      }
      // Calls come last, once the response is complete: repair their input before telling.
      let event = next.value;
      if (event.type === 'tool_use' && repairs) {
        const used = repairs.use(event);
        event = used instanceof Promise ? await used : used;
      }
      if (event.type === 'text_was_reasoning') {
        text = ''; // reasoning is never stored as content, not even from a cut-off response
        tellTextWasReasoning(context, event.text);
        continue;
      }
      if (event.type === 'text') text += event.text;
      yield event;
    }
  } catch (error) {
    const aborted = context.signal?.aborted === true || isAbortError(error);
    // A stopped answer is marked, so a reloaded conversation does not show it as complete;
    // stopped before its first word, it is stored empty for that mark (and never sent).
    if (text !== '' || aborted)
      context.append({ role: 'assistant', content: text, ...(aborted ? { stopped: true } : {}) });
    if (fitting) fitting.observeRefusal(context.backend, errorMessage(error));
    // The summary call made room for this request and was paid for (counted when it ended):
    // reported on this call's step_end, which has no usage of its own (it failed or stopped).
    if (end.summaryUsage) yield { type: 'step_end', iteration, finishReason: 'error', ...end };
    if (aborted) {
      throw new AgentError('EXECUTION_CANCELLED', 'The run was cancelled', { cause: error });
    }
    // Any backend's server errors (an openai client, WebLLM) name their fix like ours do.
    throw await withSetupFix(error);
  }
  // Read before the awaits below: a Stop after the answer ended does not cut it off.
  const stoppedQuietly = context.signal?.aborted === true;
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
  yield {
    type: 'step_end',
    iteration,
    finishReason: turn.finishReason,
    usage,
    ...(contextWindow === undefined ? {} : { contextWindow }),
    ...end,
  };
  return {
    turn,
    usage,
    answer: structured?.read(turn),
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

/** `onTextWasReasoning`, if given; like `onToolInputDelta`, a throw goes to `onError`. */
function tellTextWasReasoning(context: LoopContext, text: string): void {
  const callback = context.options.onTextWasReasoning;
  if (callback === undefined) return;
  try {
    callback(text);
  } catch (error) {
    context.report(callbackFailure('onTextWasReasoning', error));
  }
}

function buildRequest({ options, registry, state, sent }: LoopContext): ChatRequest {
  const tools = registry.definitions;
  // Without what history keeps for display only (the Client's `sent`; see display-fields.ts).
  const messages = sent ? sent(sentMessages(state.messages)) : sentMessages(state.messages);
  const request: ChatRequest = {
    model: options.model,
    messages: options.systemPrompt
      ? [{ role: 'system', content: options.systemPrompt }, ...messages]
      : messages,
    stream: true,
    stream_options: { include_usage: true },
    // Sampling only when the app set it: otherwise the server's own settings apply (an
    // Ollama Modelfile's PARAMETER, llama-server's --temp and presets, LM Studio's presets).
    ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
    ...(options.maxTokens === undefined ? {} : { max_tokens: options.maxTokens }),
    ...(tools ? { tools } : {}),
    ...(tools && options.toolChoice !== undefined ? { tool_choice: options.toolChoice } : {}),
    ...(tools && options.parallelToolCalls !== undefined
      ? { parallel_tool_calls: options.parallelToolCalls }
      : {}),
  };
  return options.requestExtras ? withExtras(request, options.requestExtras) : request;
}

/**
 * The conversation as sent: without a text-only assistant message that another assistant
 * message follows, or that ends the conversation — the partial answer of a response that
 * failed or was stopped, which a retry (`continue()`) answers again. Sent, it would be a
 * prefill the model continues (llama.cpp, Ollama) or refuses (llama.cpp with thinking on:
 * "Assistant response prefill is incompatible with enable_thinking"; WebLLM: the last
 * message must be from the user or a tool), and two assistant messages in a row break
 * templates that require alternating roles (Mistral, Gemma).
 */
function sentMessages(messages: readonly Message[]): Message[] {
  const sent: Message[] = [];
  // Per message per request: a loop, not a filter callback per message.
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as Message; // index < length
    const next = messages[index + 1];
    if (
      message.role !== 'assistant' ||
      (message.tool_calls?.length ?? 0) > 0 ||
      (next !== undefined && next.role !== 'assistant')
    )
      sent.push(message);
  }
  return sent;
}

/** A tool result with parts (images) among `messages`. A loop: it runs per message per request. */
function hasToolImages(messages: readonly Message[]): boolean {
  for (const message of messages)
    if (message.role === 'tool' && Array.isArray(message.content)) return true;
  return false;
}

/**
 * The assistant message as echoed to the server: arguments as JSON strings, `content`
 * `null` only beside `tool_calls`. Calls with unusable arguments are echoed with `{}`
 * (strict templates parse them) so their error results have a call to answer.
 */
function assistantMessage(turn: AssistantTurn): AssistantMessage {
  const toolCalls: AssistantToolCall[] = [
    ...turn.toolCalls.map((call) => ({
      id: call.id,
      type: 'function' as const,
      function: { name: call.name, arguments: JSON.stringify(call.input) },
    })),
    ...turn.invalidToolCalls.flatMap((call) =>
      call.toolUseId && call.name
        ? [
            {
              id: call.toolUseId,
              type: 'function' as const,
              function: { name: call.name, arguments: '{}' },
            },
          ]
        : [],
    ),
  ];
  const message: AssistantMessage =
    toolCalls.length === 0
      ? { role: 'assistant', content: turn.text }
      : { role: 'assistant', content: turn.text === '' ? null : turn.text, tool_calls: toolCalls };
  if (turn.reasoning) message.reasoning = turn.reasoning;
  return message;
}
