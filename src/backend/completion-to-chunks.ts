import { AgentError } from '../errors/agent-error.js';
import { isErrorPayload, truncate } from './server-error-message.js';
import { streamError } from './stream-error.js';
import { isRecord } from '../types/is-record.js';

/**
 * Converts a whole JSON answer into chat-completion chunks, for servers that ignore
 * `stream: true` and reply `application/json` (some proxies, older text-generation-webui,
 * a misconfigured gateway): a `chat.completion` becomes one chunk per choice
 * (`delta` = the message, with `index` on each tool call and object arguments
 * stringified) plus a usage chunk; a lone `chat.completion.chunk` passes through.
 *
 * @throws AgentError `STREAM_ERROR` for an error object, `INVALID_RESPONSE` for any
 *   other JSON (a wrong URL that answers, say, a model list).
 */
export function completionToChunks(value: unknown, url: string): unknown[] {
  if (isErrorPayload(value)) throw streamError(value, url);
  if (isRecord(value) && Array.isArray(value.choices)) {
    const choices: unknown[] = value.choices;
    if (choices.every((choice) => isRecord(choice) && isRecord(choice.delta))) return [value];
    if (choices.every((choice) => isRecord(choice) && isRecord(choice.message))) {
      const { choices: _choices, usage, object: _object, ...rest } = value;
      const chunks: unknown[] = choices.filter(isRecord).map((choice, position) => ({
        ...rest,
        object: 'chat.completion.chunk',
        choices: [
          {
            index: typeof choice.index === 'number' ? choice.index : position,
            delta: messageToDelta(choice.message),
            finish_reason: choice.finish_reason ?? null,
            ...(choice.logprobs === undefined ? {} : { logprobs: choice.logprobs }),
          },
        ],
      }));
      if (usage !== undefined && usage !== null)
        chunks.push({ ...rest, object: 'chat.completion.chunk', choices: [], usage });
      return chunks;
    }
  }
  const text = truncate(JSON.stringify(value) ?? String(value));
  throw new AgentError(
    'INVALID_RESPONSE',
    `Expected a chat completion from ${url}, received JSON: ${text}`,
    {
      context: { url, received: text },
    },
  );
}

function messageToDelta(message: unknown): Record<string, unknown> {
  if (!isRecord(message)) return {};
  const { tool_calls: toolCalls, ...delta } = message;
  if (!Array.isArray(toolCalls)) return delta;
  return {
    ...delta,
    tool_calls: toolCalls.map((call: unknown, position) => {
      if (!isRecord(call)) return call;
      const fn = isRecord(call.function) ? call.function : undefined;
      const args = fn?.arguments;
      return {
        index: position,
        ...call,
        // Ollama's OpenAI layer and some proxies send arguments as an object; the wire format is a string.
        ...(fn
          ? {
              function: {
                ...fn,
                arguments:
                  typeof args === 'string' || args === undefined ? args : JSON.stringify(args),
              },
            }
          : {}),
      };
    }),
  };
}
