import { AgentError } from '../errors/agent-error.js';
import type { ChatBackend, ChatRequest } from '../types/chat-request.js';
import type { ContextTrimmed } from '../types/events.js';
import type { Message } from '../types/message.js';
import type { Usage } from '../types/usage.js';
import type { AgentOptions } from '../loop/agent-options.js';
import {
  estimateMessageTokens,
  fitMessages,
  type FitInput,
  type FitResult,
} from './fit-messages.js';
import {
  probeContextWindow,
  type ContextServer,
  type ContextProbe,
} from './probe-context-window.js';
import { noVision, withoutImages } from './no-vision.js';

/** The window assumed when the server does not say (Ollama's default below 24 GiB of VRAM). */
export const FALLBACK_WINDOW = 4096;
/** Ollama `num_ctx` grows in steps of this many tokens, so the model is seldom reloaded. */
const NUM_CTX_STEP = 8192;

/** What one client learned about its model's window: kept across runs, per backend. */
interface ContextState {
  probe?: Promise<ContextProbe>;
  /** The probe's answer once it settled: later calls fit without awaiting anything. */
  probed?: KnownWindow;
  /** The messages last fitted and their running token sums, reused while the conversation only grows. */
  counted?: CountedMessages;
  /** A window learned from a refusal or a silent truncation: never exceeded again. */
  learned?: number;
  /** Reported ÷ estimated prompt tokens (1 before any report). */
  scale: number;
  /** The `num_ctx` sent to Ollama's native API: stable, raised only when needed. */
  numCtx?: number;
}

const states = new WeakMap<ChatBackend, ContextState>();

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
}

/**
 * Fits `request` to the model's window before a call (see AgentOptions.contextPolicy): the
 * window from `contextWindow`, else asked from the server once; the oldest turns left out
 * first; `max_tokens` lowered to what is left when it would not fit; with `api: 'ollama'` a
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
  const policy = options.contextPolicy ?? 'drop-oldest';
  if (known !== undefined && typeof policy !== 'function') {
    const request = seen(options, known, asked);
    const input = fitInput(options, state, known, request);
    return fitted(options, state, known, request, input, applyPolicyNow(policy, input));
  }
  return fitLater(options, state, asked, signal);
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
  state: ContextState,
  asked: ChatRequest,
  signal: AbortSignal | undefined,
): Promise<FittedRequest> {
  const known = knownWindow(options, state) ?? (await windowFor(options, state, signal));
  const request = seen(options, known, asked);
  const input = fitInput(options, state, known, request);
  const policy = options.contextPolicy ?? 'drop-oldest';
  return fitted(options, state, known, request, input, await applyPolicy(policy, input));
}

/** The window and what limits the prompt, worked out before fitting. */
interface KnownWindow {
  window: number;
  server?: ContextServer;
  trainedMax?: number;
  acceptsImages?: boolean;
}

/** What one fit works with: the policy's input, the limit it fits to, and the room kept for the answer. */
interface PreparedFit {
  fit: FitInput;
  system: Message | undefined;
  limit: number;
  reserve: number;
  maxTokens: number;
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
  const maxTokens = request.max_tokens ?? 4096;
  const reserve = Math.min(maxTokens, Math.floor(limit / 4));
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
  { window, server, trainedMax, acceptsImages }: KnownWindow,
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
  if (limit - fit.promptTokens < maxTokens) sent.max_tokens = Math.max(1, limit - fit.promptTokens);
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
    contextWindow: typeof sent.options === 'object' ? (numCtxOf(sent) ?? limit) : limit,
    ...(server ? { server } : {}),
    ...(acceptsImages === undefined ? {} : { acceptsImages }),
    ...(acceptsImages === undefined ? {} : { acceptsImages }),
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

/** The messages last counted, with the token sum of each prefix (`sums[i]`: messages before `i`). */
interface CountedMessages {
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
  policy: NonNullable<AgentOptions['contextPolicy']>,
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
  if (Number.isFinite(ratio))
    state.scale = Math.min(3, Math.max(0.5, state.scale * 0.5 + ratio * 0.5));
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

function stateOf(backend: ChatBackend): ContextState {
  let state = states.get(backend);
  if (!state) states.set(backend, (state = { scale: 1 }));
  return state;
}

/** Asks the server for the window (once per client; the probe itself once per server and model). */
async function windowFor(
  options: AgentOptions,
  state: ContextState,
  signal: AbortSignal | undefined,
): Promise<KnownWindow> {
  state.probe ??= probeContextWindow({
    baseURL: options.baseURL ?? '',
    model: options.model,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    signal,
  });
  const probed = windowOf(await state.probe);
  if (signal?.aborted === true) delete state.probe;
  else state.probed = probed;
  return probed;
}

/** The window without waiting: given, or asked before; undefined while the server must be asked. */
function knownWindow(options: AgentOptions, state: ContextState): KnownWindow | undefined {
  if (typeof options.contextWindow === 'number') {
    return {
      window: options.contextWindow,
      ...(options.api === 'ollama' ? { server: 'ollama' as const } : {}),
    };
  }
  if (!options.baseURL)
    return { window: options.backend?.contextWindow?.(options.model) ?? FALLBACK_WINDOW };
  return state.probed;
}

function windowOf(probe: ContextProbe): KnownWindow {
  return {
    window: probe.window ?? FALLBACK_WINDOW,
    ...(probe.server ? { server: probe.server } : {}),
    ...(probe.trainedMax ? { trainedMax: probe.trainedMax } : {}),
    ...(probe.acceptsImages === undefined ? {} : { acceptsImages: probe.acceptsImages }),
  };
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

function overflow(
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
