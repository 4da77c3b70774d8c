import type { ChatRequest } from '../types/chat-request.js';
import type { ContextServer } from './probe-context-window.js';

/** How much of the first request's text is tokenized: enough to measure, cheap to send. */
const SAMPLE_CHARS = 4096;
/** Below this, a sample says little and the request fits anyway: usage calibrates later. */
const MIN_SAMPLE_CHARS = 1024;
/** A tokenize call that takes longer than this is given up: the first request waits on it. */
const TIMEOUT_MS = 2000;

const seeds = new Map<string, Promise<number | undefined>>();

/** What {@link tokenizedScale} needs. */
export interface TokenizeOptions {
  /** The server's root (without `/v1`), as the window probe uses it. */
  root: string;
  model: string;
  server: ContextServer | undefined;
  fetch: typeof globalThis.fetch;
  signal?: AbortSignal | undefined;
}

/**
 * The estimate's scale (server tokens ÷ the ~4-characters-a-token estimate) measured by the
 * server's own tokenizer, before any response has calibrated it: llama.cpp `POST /tokenize
 * {content}` → `{tokens}`, vLLM `POST /tokenize {model, prompt}` → `{count, tokens}`. The
 * sample is the newest text of the first request (up to 4 KB): the conversation's own mix of
 * prose, code, JSON or scripts, which is what the estimate gets wrong (CJK text or minified
 * JSON can take two or three times the tokens of English prose) — a fixed sample would only
 * measure itself. Once per server and model (cached); other servers (Ollama, LM Studio) have
 * no such endpoint and are not asked. Never throws: `undefined` when the server does not
 * answer, or the request is too short to need it.
 */
export function tokenizedScale(
  options: TokenizeOptions,
  request: ChatRequest,
): Promise<number | undefined> | undefined {
  if (options.server !== 'llama.cpp' && options.server !== 'vllm') return undefined;
  const key = `${options.root} ${options.model}`;
  const cached = seeds.get(key);
  if (cached) return cached;
  const sample = sampleOf(request);
  if (sample.length < MIN_SAMPLE_CHARS) return undefined;
  const seed = count(options, sample).then((tokens) =>
    tokens === undefined
      ? undefined
      : Math.min(3, Math.max(0.5, tokens / Math.ceil(sample.length / 4))),
  );
  seeds.set(key, seed);
  // A stopped run or a server that did not answer: a later client may ask again.
  void seed.then((scale) => {
    if (scale === undefined) seeds.delete(key);
  });
  return seed;
}

/** The text of the newest messages, newest first, up to {@link SAMPLE_CHARS}. */
function sampleOf({ messages }: ChatRequest): string {
  let sample = '';
  for (let index = messages.length - 1; index >= 0 && sample.length < SAMPLE_CHARS; index -= 1) {
    const message = messages[index];
    if (!message) continue;
    const { content } = message;
    if (typeof content === 'string') sample = `${content}\n${sample}`;
    else if (Array.isArray(content))
      for (const part of content) if (part.type === 'text') sample = `${part.text}\n${sample}`;
    if (message.role === 'assistant')
      for (const call of message.tool_calls ?? []) sample = `${call.function.arguments}\n${sample}`;
  }
  return sample.slice(-SAMPLE_CHARS);
}

async function count(
  { root, model, server, fetch, signal }: TokenizeOptions,
  sample: string,
): Promise<number | undefined> {
  const timeout = AbortSignal.timeout(TIMEOUT_MS);
  try {
    const response = await fetch(`${root}/tokenize`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(server === 'vllm' ? { model, prompt: sample } : { content: sample }),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
    if (!response.ok) return undefined;
    const json = (await response.json()) as { count?: unknown; tokens?: unknown };
    const tokens =
      typeof json.count === 'number'
        ? json.count
        : Array.isArray(json.tokens)
          ? json.tokens.length
          : 0;
    return tokens > 0 ? tokens : undefined;
  } catch {
    return undefined;
  }
}
