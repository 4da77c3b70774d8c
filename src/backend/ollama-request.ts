import type { ChatRequest } from '../types/chat-request.js';
import type { Message } from '../types/message.js';
import { tryParseJSON } from './server-error-message.js';
import { isRecord } from '../types/is-record.js';

/** OpenAI sampling fields that Ollama takes inside `options` (same names). */
const SAMPLING_FIELDS = [
  'top_p',
  'top_k',
  'seed',
  'stop',
  'frequency_penalty',
  'presence_penalty',
] as const;
/** Native `/api/chat` fields passed through untouched when the caller set them. */
const NATIVE_FIELDS = ['think', 'format', 'keep_alive'] as const;

/**
 * Translates a chat-completions request into an Ollama `/api/chat` body:
 * assistant tool-call arguments become objects, tool results carry `tool_name`,
 * `temperature` / `max_tokens` (→ `num_predict`) / sampling fields go into `options`
 * (merged with any `options` object the caller put in the request, e.g. `{ num_ctx }`),
 * `response_format`'s JSON Schema becomes `format`, and `think`, `format`, `keep_alive` pass
 * through.
 */
export function toOllamaRequest(request: ChatRequest): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  if (request.temperature !== undefined) options.temperature = request.temperature;
  if (request.max_tokens !== undefined) options.num_predict = request.max_tokens;
  for (const field of SAMPLING_FIELDS) {
    if (request[field] !== undefined) options[field] = request[field];
  }
  if (isRecord(request.options)) Object.assign(options, request.options);

  const body: Record<string, unknown> = {
    model: request.model,
    messages: toOllamaMessages(request.messages),
    stream: true,
  };
  // Ollama has no tool_choice; "none" is honoured by not offering the tools at all.
  if (request.tools && request.tools.length > 0 && request.tool_choice !== 'none')
    body.tools = request.tools;
  if (Object.keys(options).length > 0) body.options = options;
  // Ollama's native API takes the JSON Schema itself as `format` (structured outputs, 0.5+).
  const schema = responseSchema(request.response_format);
  if (schema !== undefined) body.format = schema;
  for (const field of NATIVE_FIELDS) {
    if (request[field] !== undefined) body[field] = request[field];
  }
  return body;
}

/** The schema of an OpenAI `response_format` (`json_schema`), or `'json'` for `json_object`. */
function responseSchema(format: unknown): unknown {
  if (!isRecord(format)) return undefined;
  if (format.type === 'json_object') return 'json';
  return format.type === 'json_schema' && isRecord(format.json_schema)
    ? format.json_schema.schema
    : undefined;
}

function toOllamaMessages(messages: Message[]): Record<string, unknown>[] {
  const toolNames = new Map<string, string>();
  return messages.map((message) => {
    switch (message.role) {
      case 'system':
      case 'user':
        return { role: message.role, content: message.content };
      case 'assistant': {
        const calls = message.tool_calls ?? [];
        for (const call of calls) toolNames.set(call.id, call.function.name);
        return {
          role: 'assistant',
          content: message.content ?? '',
          ...(calls.length > 0
            ? {
                tool_calls: calls.map((call) => ({
                  function: {
                    name: call.function.name,
                    arguments: argumentsObject(call.function.arguments),
                  },
                })),
              }
            : {}),
        };
      }
      case 'tool': {
        const name = message.name ?? toolNames.get(message.tool_call_id);
        return {
          role: 'tool',
          content: message.content,
          ...(name === undefined ? {} : { tool_name: name }),
        };
      }
    }
  });
}

/**
 * Ollama rejects string arguments ("cannot unmarshal string into … map"). Arguments the
 * model garbled were already answered with an error result by the loop; `{}` keeps the
 * history sendable.
 */
function argumentsObject(text: string): Record<string, unknown> {
  const parsed = tryParseJSON(text);
  return parsed && isRecord(parsed.value) ? parsed.value : {};
}
