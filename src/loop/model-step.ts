import { callbackFailure } from '../errors/agent-error.js';
import type { AssistantTurn } from '../stream/aggregate-stream.js';
import type { WaitReport } from '../types/chat-request.js';
import type { AgentEvent } from '../types/events.js';
import type { Usage } from '../types/usage.js';
import type { StructuredAnswer } from './structured-answer.js';
import type { LoopContext } from './loop-context.js';
import { beginCall, endCall, failedCall, openEvents, requestFor } from './model-call.js';
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
  // The call's once-per-call work is in plain functions (model-call.ts): this generator runs
  // per event, and stays small for the engine to optimize.
  const call = await beginCall(context, onWaiting, count);
  // 'summarize' (the context chunk loads the summarising code for a client that asks for it):
  // an async generator, whose summary call's wait is announced like this call's and whose usage
  // is counted (`count`) when it ends; the other policies fit synchronously once the window is known.
  let fitted = call.fit;
  if (fitted && 'next' in fitted) fitted = yield* fitted;
  // Synchronous once the window is known: no promise to wait for before every call.
  if (fitted instanceof Promise) fitted = await fitted;
  if (fitted?.trimmed) yield fitted.trimmed;
  await requestFor(call, fitted);
  let text = '';
  let turn: AssistantTurn;
  /** The answer's events while they may still come: closed if the consumer stops reading. */
  let open: AsyncGenerator<unknown> | undefined;
  try {
    const { events, repairs } = await openEvents(call, onWaiting);
    open = events;
    for (;;) {
      const next = await events.next();
      if (next.done === true) {
        open = undefined;
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
    const failed = await failedCall(call, iteration, text, error);
    if (failed.stepEnd) yield failed.stepEnd;
    throw failed.error;
  } finally {
    // Not read to its end: the consumer stopped reading mid-answer (a `break`, the pump's
    // return()) or threw, or it failed (closing is then a no-op). The request closes as a Stop
    // closes it: a local server stops generating and frees its slot. Nothing is added to history
    // here: after a `break` before the first token this runs only once that token comes, when
    // the client may be running another prompt.
    if (open) await open.return(undefined);
  }
  // Read before the awaits below: a Stop after the answer ended does not cut it off.
  const ended = await endCall(call, iteration, turn, context.signal?.aborted === true);
  yield ended.stepEnd;
  return ended.result;
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
