import { AgentError } from '../errors/agent-error.js';
import { isRecord } from '../types/is-record.js';
import { truncate } from './server-error-message.js';
import { streamError } from './stream-error.js';

/**
 * Turns Ollama `/api/chat` NDJSON lines into OpenAI `chat.completion.chunk` objects.
 * Stateful: tool calls arrive whole (object arguments; `function.index` counts within one
 * message only), one or more per line, so each gets the next stream-wide `index`; the
 * server's id is kept (since 0.12.10), and the aggregator assigns one where it is missing.
 */
export class OllamaChunkTranslator {
  #toolCalls = 0;

  constructor(readonly url: string) {}

  /**
   * The chunks for one parsed line, and whether it was the final (`done: true`) line.
   * @throws AgentError `STREAM_ERROR` for `{"error": …}`, `INVALID_RESPONSE` for a line
   *   that is not an Ollama chat message.
   */
  translate(line: unknown): { chunks: unknown[]; done: boolean } {
    if (isRecord(line) && line.error !== undefined && line.error !== null)
      throw streamError(line, this.url);
    if (!isRecord(line) || (!isRecord(line.message) && line.done !== true)) {
      const text = truncate(JSON.stringify(line) ?? String(line));
      throw new AgentError(
        'INVALID_RESPONSE',
        `Expected an Ollama chat message from ${this.url}, received: ${text}`,
        {
          context: { url: this.url, received: text },
        },
      );
    }
    const base = {
      object: 'chat.completion.chunk',
      ...(typeof line.model === 'string' ? { model: line.model } : {}),
      ...createdField(line.created_at),
    };
    const chunks: unknown[] = [];
    const delta = this.#delta(line.message);
    if (Object.keys(delta).length > 0)
      chunks.push({ ...base, choices: [{ index: 0, delta, finish_reason: null }] });
    if (line.done !== true) return { chunks, done: false };

    chunks.push({
      ...base,
      choices: [
        {
          index: 0,
          delta: {},
          finish_reason: typeof line.done_reason === 'string' ? line.done_reason : 'stop',
        },
      ],
    });
    const usage = usageOf(line);
    if (usage) chunks.push({ ...base, choices: [], usage });
    return { chunks, done: true };
  }

  #delta(message: unknown): Record<string, unknown> {
    if (!isRecord(message)) return {};
    const delta: Record<string, unknown> = {};
    if (typeof message.content === 'string' && message.content !== '')
      delta.content = message.content;
    if (typeof message.thinking === 'string' && message.thinking !== '')
      delta.reasoning = message.thinking;
    if (Array.isArray(message.tool_calls) && message.tool_calls.length > 0) {
      delta.tool_calls = message.tool_calls.filter(isRecord).map((call) => {
        const fn = isRecord(call.function) ? call.function : {};
        const args = fn.arguments;
        return {
          index: this.#toolCalls++,
          // Ollama 0.12.10+ sends `call_…` ids (older versions none: the aggregator makes one).
          ...(typeof call.id === 'string' && call.id !== '' ? { id: call.id } : {}),
          type: 'function',
          function: {
            name: typeof fn.name === 'string' ? fn.name : '',
            arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}),
          },
        };
      });
    }
    if (Object.keys(delta).length > 0 && message.role === 'assistant') delta.role = 'assistant';
    return delta;
  }
}

function createdField(createdAt: unknown): { created?: number } {
  if (typeof createdAt !== 'string') return {};
  const time = Date.parse(createdAt);
  return Number.isNaN(time) ? {} : { created: Math.floor(time / 1000) };
}

function usageOf(line: Record<string, unknown>) {
  const prompt = line.prompt_eval_count;
  const completion = line.eval_count;
  if (typeof prompt !== 'number' && typeof completion !== 'number') return undefined;
  const promptTokens = typeof prompt === 'number' ? prompt : 0;
  const completionTokens = typeof completion === 'number' ? completion : 0;
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
}
