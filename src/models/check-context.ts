import { firstLine } from './first-line.js';
import type { ServerCheck } from './check-server.js';
import { chunkFacts } from './chunk-facts.js';
import { streamChunks, type ProbeContext } from './generation-probe.js';
import type { LocalModel } from './local-models.js';
import { contextFix } from './server-fixes.js';

/** Below this many tokens a window is short for an agent (tools, their results, a few turns). */
const SHORT_WINDOW = 8_192;

/** The window the model is served with, from what the server listed. */
export function checkContext(
  model: LocalModel | undefined,
  context: Pick<ProbeContext, 'kind' | 'model'>,
): ServerCheck {
  const window = model?.contextLength;
  const trained = model?.maxContextLength;
  if (window === undefined) {
    return {
      id: 'context',
      status: 'warn',
      detail: `The server does not tell ${context.model}'s context window${trained ? ` (trained for ${trained})` : ''}: open-agent assumes 4,096 tokens and learns from refusals and usage.`,
      fix: 'Set `contextWindow` in the agent options to the window the model is served with.',
    };
  }
  const of = trained !== undefined && trained !== window ? ` (trained for ${trained})` : '';
  if (window < SHORT_WINDOW && (trained === undefined || trained > window)) {
    return {
      id: 'context',
      status: 'warn',
      detail: `${context.model} is served with a ${window}-token window${of}: a few tool results fill it, and open-agent then leaves the oldest turns out.`,
      fix: contextFix(context.kind, context.model, Math.min(trained ?? 32_768, 32_768)),
    };
  }
  return {
    id: 'context',
    status: 'pass',
    detail: `${context.model} is served with a ${window}-token window${of}.`,
  };
}

/**
 * Whether a prompt longer than the window is cut silently (Ollama keeps the end of the prompt
 * and answers 200): one request of about `window + 512` tokens of filler that asks for 1
 * token, its reported prompt tokens compared with what was sent.
 */
export async function checkTruncation(context: ProbeContext, window: number): Promise<ServerCheck> {
  const words = window + 512;
  const prompt = `Ignore this filler: ${'word '.repeat(words)}\nReply with OK.`;
  let chunks: unknown[];
  try {
    chunks = await streamChunks(context, {
      messages: [{ role: 'user', content: prompt }],
      max_tokens: 1,
      stream_options: { include_usage: true },
    });
  } catch (error) {
    return {
      id: 'truncation',
      status: 'pass',
      detail: `A prompt over the ${window}-token window is refused, not cut: ${firstLine(error)}`,
    };
  }
  const read = chunkFacts(chunks).usage?.promptTokens;
  if (read === undefined) {
    return {
      id: 'truncation',
      status: 'warn',
      detail: `A prompt over the ${window}-token window was answered, and the server did not say how much of it it read.`,
      fix: contextFix(context.kind, context.model, 32_768),
    };
  }
  // The filler is one token a word in every tokenizer (" word"): reading no more than the
  // window of a prompt 512 tokens longer is a cut.
  if (read <= window) {
    return {
      id: 'truncation',
      status: 'fail',
      detail: `Sent about ${words} tokens, the server read ${read}: it cut the start of the prompt silently (system prompt and tools first).`,
      fix: contextFix(context.kind, context.model, 32_768),
    };
  }
  return {
    id: 'truncation',
    status: 'pass',
    detail: `A prompt over the window was read whole (${read} tokens).`,
  };
}
