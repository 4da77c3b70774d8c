import type { ChatBackend, ChatRequest } from '../types/chat-request.js';
import type { ContextTrimmed } from '../types/events.js';
import type { Message } from '../types/message.js';
import type { AgentOptions } from '../loop/agent-options.js';
import {
  estimateMessageTokens,
  fitMessages,
  type FitInput,
  type FitResult,
} from './fit-messages.js';
import type { ContextServer } from './probe-context-window.js';
import { noVision, withoutImages } from './no-vision.js';
import {
  FALLBACK_WINDOW,
  knownWindow,
  stateOf,
  windowFor,
  type ContextState,
  type KnownWindow,
} from './context-state.js';
import { overflow } from './server-feedback.js';

// What model-step.ts loads with this module: learning from responses and refusals.
export { FALLBACK_WINDOW, learnWindow } from './context-state.js';
export { fixFor, observeRefusal, observeUsage } from './server-feedback.js';
export { fitStep } from './fit-step.js';

/** Ollama `num_ctx` grows in steps of this many tokens, so the model is seldom reloaded. */
const NUM_CTX_STEP = 8192;
/**
 * A conversation under this many estimated tokens (with the answer's `maxTokens`) fits any
 * window a local server starts with: it is sent without asking the server first.
 */
const SHORT_CONVERSATION = 2048;
/** Tokens of the window kept free for the answer when the app sets no `maxTokens` (at most a quarter of it). */
const ANSWER_ROOM = 4096;

/** A request made to fit, and what it cost. */
export interface FittedRequest {
  request: ChatRequest;
  trimmed?: ContextTrimmed;
  /** The calibrated estimate of the prompt as sent, and the window it was fitted to. */
  promptTokens: number;
  contextWindow: number;
  server?: ContextServer;
  /** Whether the model takes images, when the server said (tool results' images go as text if not). */
  acceptsImages?: boolean;
  /**
   * Whether the model starts mid-thought, when the server said (llama.cpp's template, Ollama's
   * capabilities): passed to the stream reader, below the app's `textMarkup.startsInReasoning`.
   */
  startsInReasoning?: boolean;
  /** The prompt's room (`budget`), the whole prompt as asked before anything was left out, and the calibration: what `'summarize'` decides by. */
  room: { budget: number; askedTokens: number; scale: number };
  /**
   * Sent without the window, which nobody has asked yet (a short conversation, see
   * {@link fitRequest}): `contextWindow` is the fallback, and the window is learned from the
   * server in the background once it has answered (`learnWindow`).
   */
  provisional?: true;
}

/**
 * Fits `request` to the model's window before a call (see AgentOptions.contextPolicy): the
 * window from `contextWindow`, else asked from the server once — not before the first
 * request of a conversation under 2,048 estimated tokens without images, which any window holds: that one
 * goes out at once, unchanged, and the window is asked once the server has answered (and
 * named itself); the oldest turns left out
 * first, keeping room for the answer (`max_tokens` when set, lowered to what is left when it
 * would not fit; it is never added); with `api: 'ollama'` a
 * stable `options.num_ctx`. Never changes the stored messages. Synchronous (no promise, no
 * await) once the window is known and the policy is not a function: it runs before every
 * model call.
 * @throws AgentError `CONTEXT_OVERFLOW` when even the current turn does not fit, or the
 * policy is `'error'` and something would be left out.
 */
export function fitRequest(
  options: AgentOptions,
  backend: ChatBackend,
  asked: ChatRequest,
  signal?: AbortSignal,
): FittedRequest | Promise<FittedRequest> {
  const state = stateOf(backend);
  const known = knownWindow(options, state);
  const policy = plainPolicy(options.contextPolicy);
  if (known !== undefined && typeof policy !== 'function') {
    const request = seen(options, known, asked);
    const input = fitInput(options, state, known, request);
    return fitted(options, state, known, request, input, applyPolicyNow(policy, input));
  }
  if (known === undefined && state.probe === undefined) {
    const short = unasked(options, state, asked);
    if (short) return short;
  }
  return fitLater(options, backend, asked, signal);
}

/** A short conversation sent as asked, before the server is asked its window (see {@link fitRequest}). */
function unasked(
  options: AgentOptions,
  state: ContextState,
  request: ChatRequest,
): FittedRequest | undefined {
  // An image: whether the model takes it is asked first (a clear refusal instead of the server's).
  if (request.messages.some((message) => Array.isArray(message.content))) return undefined;
  const { fit, maxTokens } = fitInput(options, state, { window: FALLBACK_WINDOW }, request);
  const askedTokens = Math.ceil((fit.fixedTokens + (fit.messageTokens ?? 0)) * fit.scale);
  if (askedTokens + (maxTokens ?? 0) >= SHORT_CONVERSATION) return undefined;
  return {
    request,
    promptTokens: askedTokens,
    contextWindow: FALLBACK_WINDOW,
    room: { budget: fit.budget, askedTokens, scale: fit.scale },
    provisional: true,
  };
}

/**
 * What a model that takes no images (as its server said up front) is sent: an image in the
 * newest prompt is refused before any request, older ones are left out.
 */
function seen(options: AgentOptions, known: KnownWindow, request: ChatRequest): ChatRequest {
  if (known.acceptsImages !== false) return request;
  const refuse = () => noVision(options.model, known.server);
  return { ...request, messages: withoutImages(request.messages, refuse) };
}

async function fitLater(
  options: AgentOptions,
  backend: ChatBackend,
  asked: ChatRequest,
  signal: AbortSignal | undefined,
): Promise<FittedRequest> {
  const state = stateOf(backend);
  const known = knownWindow(options, state) ?? (await windowFor(options, backend, signal, asked));
  const request = seen(options, known, asked);
  const input = fitInput(options, state, known, request);
  const policy = plainPolicy(options.contextPolicy);
  return fitted(options, state, known, request, input, await applyPolicy(policy, input));
}

/** What one fit works with: the policy's input, the limit it fits to, and the room kept for the answer. */
interface PreparedFit {
  fit: FitInput;
  system: Message | undefined;
  limit: number;
  reserve: number;
  /** The `max_tokens` the request carries (the app's `maxTokens` or `requestExtras`), if any. */
  maxTokens: number | undefined;
  callerNumCtx: number | undefined;
}

function fitInput(
  options: AgentOptions,
  state: ContextState,
  { window, trainedMax }: KnownWindow,
  request: ChatRequest,
): PreparedFit {
  const ollamaNative = options.api === 'ollama';
  const callerNumCtx = numCtxOf(request);
  // With Ollama's native API we choose the window (up to the trained maximum); else we fit it.
  let limit = callerNumCtx ?? (ollamaNative && trainedMax ? trainedMax : window);
  if (state.learned !== undefined && !(ollamaNative && callerNumCtx === undefined))
    limit = Math.min(limit, state.learned);
  const maxTokens = typeof request.max_tokens === 'number' ? request.max_tokens : undefined;
  // Room kept for the answer, sent or not: without maxTokens the server decides the length.
  const reserve = Math.min(maxTokens ?? ANSWER_ROOM, Math.floor(limit / 4));
  const system = request.messages[0]?.role === 'system' ? request.messages[0] : undefined;
  const messages = system ? request.messages.slice(1) : request.messages;
  const fixedTokens = (system ? estimateMessageTokens(system) : 0) + toolsTokens(request);
  // 5 % spare: the estimate is calibrated, but each server's template and tokenizer differ.
  const budget = limit - reserve - Math.ceil(limit * 0.05);
  const fit: FitInput = {
    messages,
    fixedTokens,
    budget,
    scale: state.scale,
    messageTokens: (state.counted = countMessages(state.counted, messages)).total,
  };
  return { fit, system, limit, reserve, maxTokens, callerNumCtx };
}

function fitted(
  options: AgentOptions,
  state: ContextState,
  { window, server, trainedMax, acceptsImages, startsInReasoning }: KnownWindow,
  request: ChatRequest,
  { fit: input, system, limit, reserve, maxTokens, callerNumCtx }: PreparedFit,
  fit: FitResult & { refused?: string },
): FittedRequest {
  if (!fit.fits) {
    const why = fit.refused ?? 'even the current turn does not fit';
    throw overflow(server, limit, fit.promptTokens, why);
  }
  const sent: ChatRequest = {
    ...request,
    // Nothing left out (the usual case): the request's own array, not a copy.
    messages:
      fit.messages === input.messages
        ? request.messages
        : [...(system ? [system] : []), ...fit.messages],
  };
  // Lowered only when the app asked for more than is left; never added.
  if (maxTokens !== undefined && limit - fit.promptTokens < maxTokens)
    sent.max_tokens = Math.max(1, limit - fit.promptTokens);
  if (options.api === 'ollama' && callerNumCtx === undefined) {
    const needed = fit.promptTokens + reserve;
    if (state.numCtx === undefined || state.numCtx < needed) {
      const stepped = Math.max(window, Math.ceil((needed * 1.25) / NUM_CTX_STEP) * NUM_CTX_STEP);
      state.numCtx = Math.min(trainedMax ?? stepped, stepped);
    }
    const extras = isRecord(request.options) ? request.options : {};
    sent.options = { ...extras, num_ctx: state.numCtx };
  }
  return {
    request: sent,
    promptTokens: fit.promptTokens,
    room: {
      budget: input.budget,
      askedTokens: Math.ceil((input.fixedTokens + (input.messageTokens ?? 0)) * input.scale),
      scale: input.scale,
    },
    contextWindow: typeof sent.options === 'object' ? (numCtxOf(sent) ?? limit) : limit,
    ...(server ? { server } : {}),
    ...(acceptsImages === undefined ? {} : { acceptsImages }),
    ...(startsInReasoning === undefined ? {} : { startsInReasoning }),
    ...(fit.droppedMessages > 0
      ? {
          trimmed: {
            type: 'context_trimmed',
            droppedMessages: fit.droppedMessages,
            promptTokens: fit.promptTokens,
            contextWindow: limit,
          },
        }
      : {}),
  };
}

/** `'summarize'` compacts before fitting (summarize/compact-request.ts); what is left is fitted like `'drop-oldest'`. */
function plainPolicy(
  policy: AgentOptions['contextPolicy'],
): 'drop-oldest' | 'error' | FunctionPolicy {
  return policy === undefined || policy === 'summarize' || typeof policy === 'object'
    ? 'drop-oldest'
    : policy;
}

type FunctionPolicy = Extract<
  NonNullable<AgentOptions['contextPolicy']>,
  (...args: never[]) => unknown
>;

/** The messages last counted, with the token sum of each prefix (`sums[i]`: messages before `i`). */
export interface CountedMessages {
  messages: readonly Message[];
  sums: number[];
  total: number;
}

/**
 * The token estimate of `messages`, reusing the sums of the last count for the prefix they
 * share (compared by identity: stored messages never change). A conversation that grows by
 * a few messages a call costs a pointer comparison per message, not an estimate.
 */
function countMessages(
  last: CountedMessages | undefined,
  messages: readonly Message[],
): CountedMessages {
  let shared = 0;
  if (last) {
    const limit = Math.min(last.messages.length, messages.length);
    while (shared < limit && last.messages[shared] === messages[shared]) shared += 1;
  }
  // The sums are this client's own: cut back to the shared prefix in place, then extended.
  const sums = last?.sums ?? [0];
  sums.length = shared + 1;
  let total = sums[shared] ?? 0;
  for (let index = shared; index < messages.length; index += 1) {
    total += estimateMessageTokens(messages[index] as Message);
    sums.push(total);
  }
  // A copy: the caller's array may change in place before the next call (a rewind, a push).
  return { messages: messages.slice(), sums, total };
}

/** The policy's choice of what to send, and whether it fits (`refused` says why not). */
async function applyPolicy(
  policy: 'drop-oldest' | 'error' | FunctionPolicy,
  input: PreparedFit,
): Promise<FitResult & { refused?: string }> {
  if (typeof policy !== 'function') return applyPolicyNow(policy, input);
  const fit = fitMessages(input.fit);
  if (untouched(fit, input.fit)) return fit;
  const whole = fitMessages({ ...input.fit, budget: Infinity });
  const chosen = await policy({
    messages: [...input.fit.messages],
    promptTokens: whole.promptTokens,
    contextWindow: input.limit,
  });
  const { messageTokens: _counted, ...rest } = input.fit;
  const sent = fitMessages({ ...rest, messages: chosen, budget: Infinity });
  return {
    messages: chosen,
    droppedMessages: Math.max(0, input.fit.messages.length - chosen.length),
    promptTokens: sent.promptTokens,
    fits: sent.promptTokens <= input.fit.budget,
    ...(sent.promptTokens <= input.fit.budget
      ? {}
      : { refused: 'the contextPolicy function returned too many tokens' }),
  };
}

/** {@link applyPolicy} for the policies that decide at once: `'drop-oldest'` and `'error'`. */
function applyPolicyNow(
  policy: 'drop-oldest' | 'error',
  input: PreparedFit,
): FitResult & { refused?: string } {
  const fit = fitMessages(input.fit);
  if (untouched(fit, input.fit) || policy === 'drop-oldest') return fit;
  const whole = fitMessages({ ...input.fit, budget: Infinity });
  return { ...whole, fits: false, refused: 'contextPolicy is "error"' };
}

function untouched(fit: FitResult, input: FitInput): boolean {
  return (
    fit.messages === input.messages ||
    (fit.droppedMessages === 0 &&
      fit.messages.length === input.messages.length &&
      fit.messages.every((message, index) => message === input.messages[index]))
  );
}

const toolsTokenCounts = new WeakMap<object, number>();

/** The tool definitions' estimate, counted once per definitions array (a client sends the same one every call). */
function toolsTokens({ tools }: ChatRequest): number {
  if (!tools) return 0;
  let tokens = toolsTokenCounts.get(tools);
  if (tokens === undefined)
    toolsTokenCounts.set(tools, (tokens = Math.ceil(JSON.stringify(tools).length / 4)));
  return tokens;
}

function numCtxOf(request: ChatRequest): number | undefined {
  const numCtx = isRecord(request.options) ? request.options.num_ctx : undefined;
  return typeof numCtx === 'number' && numCtx > 0 ? numCtx : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
