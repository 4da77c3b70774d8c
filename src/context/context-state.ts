/**
 * What a client knows about its model's context window, per backend: the window (given, asked
 * from the server once, or learned), the estimate's calibration, the last counted messages.
 */
import type { ChatBackend, ChatRequest } from '../types/chat-request.js';
import type { AgentOptions } from '../loop/agent-options.js';
import type { CountedMessages } from './context-manager.js';
import { tokenizedScale } from './tokenize-sample.js';
import { kindFromFingerprint, type ServerKind } from '../backend/identify-server.js';
import {
  probeContextWindow,
  serverRoot,
  type ContextServer,
  type ContextProbe,
} from './probe-context-window.js';

/** The window assumed when the server does not say (Ollama's default below 24 GiB of VRAM). */
export const FALLBACK_WINDOW = 4096;

/** What one client learned about its model's window: kept across runs, per backend. */
export interface ContextState {
  probe?: Promise<ContextProbe>;
  /** The probe's answer once it settled: later calls fit without awaiting anything. */
  probed?: KnownWindow;
  /** The messages last fitted and their running token sums, reused while the conversation only grows. */
  counted?: CountedMessages;
  /** A window learned from a refusal or a silent truncation: never exceeded again. */
  learned?: number;
  /** Reported ÷ estimated prompt tokens (1 before any report; seeded by the server's tokenizer where it has one). */
  scale: number;
  /** Whether a response's reported usage has calibrated `scale` (a tokenizer seed is then moot). */
  calibrated?: boolean;
  /** The `num_ctx` sent to Ollama's native API: stable, raised only when needed. */
  numCtx?: number;
}

const states = new WeakMap<ChatBackend, ContextState>();

/** The window and what limits the prompt, worked out before fitting. */
export interface KnownWindow {
  window: number;
  server?: ContextServer;
  trainedMax?: number;
  acceptsImages?: boolean;
  /** Whether the model starts mid-thought, when the server said (see {@link ContextProbe}). */
  startsInReasoning?: boolean;
}

/** The state of `backend`'s client, made on first use. */
export function stateOf(backend: ChatBackend): ContextState {
  let state = states.get(backend);
  if (!state) states.set(backend, (state = { scale: 1 }));
  return state;
}

/**
 * Asks the server for the window (once per client; the probe itself once per server and
 * model) and, where the server has a tokenizer endpoint (llama.cpp, vLLM), seeds the
 * estimate's scale from it before the first request is fitted.
 */
export async function windowFor(
  options: AgentOptions,
  backend: ChatBackend,
  signal: AbortSignal | undefined,
  request: ChatRequest,
): Promise<KnownWindow> {
  const state = stateOf(backend);
  const fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const baseURL = options.baseURL ?? '';
  state.probe ??= probeContextWindow({
    baseURL,
    model: options.model,
    fetch,
    signal,
    server: serverSeen(options, backend),
  });
  const probed = windowOf(await state.probe);
  const seeding = state.calibrated
    ? undefined
    : tokenizedScale(
        { root: serverRoot(baseURL), model: options.model, server: probed.server, fetch, signal },
        request,
      );
  const seed = seeding && (await seeding);
  if (seed !== undefined && state.calibrated !== true) state.scale = seed;
  if (signal?.aborted === true) delete state.probe;
  else state.probed = probed;
  return probed;
}

/**
 * Starts asking the server for the window in the background, once its first answer has
 * arrived (a short first prompt is sent without asking: see context-manager.ts): the answer
 * named the server, so only its endpoint is asked. Resolves with the window once known
 * ({@link FALLBACK_WINDOW} when the server did not say). Never throws.
 */
export function learnWindow(options: AgentOptions, backend: ChatBackend): Promise<number> {
  const state = stateOf(backend);
  if (state.probed) return Promise.resolve(limitOf(state, state.probed));
  if (!state.probe) {
    const fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    const probe = probeContextWindow({
      baseURL: options.baseURL ?? '',
      model: options.model,
      fetch,
      server: serverSeen(options, backend),
    });
    state.probe = probe;
    void probe.then((answer) => {
      if (state.probe === probe) state.probed ??= windowOf(answer);
    });
  }
  return state.probe.then((answer) => limitOf(state, windowOf(answer)));
}

/** The server the backend's answers named (`api: 'ollama'`, a chunk's `system_fingerprint`). */
function serverSeen(options: AgentOptions, backend: ChatBackend): ServerKind | undefined {
  if (options.api === 'ollama') return 'ollama';
  // Kept on the backend by the fetch backend (fetch-backend.ts): a read of a field it may lack.
  const seen = (backend as { systemFingerprint?: unknown }).systemFingerprint;
  return kindFromFingerprint(seen, options.model);
}

function limitOf(state: ContextState, known: KnownWindow): number {
  return Math.min(known.window, state.learned ?? Infinity);
}

/** The window without waiting: given, or asked before; undefined while the server must be asked. */
export function knownWindow(options: AgentOptions, state: ContextState): KnownWindow | undefined {
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
    ...(probe.startsInReasoning === undefined
      ? {}
      : { startsInReasoning: probe.startsInReasoning }),
  };
}
