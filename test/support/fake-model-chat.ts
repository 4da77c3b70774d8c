/**
 * The chat side of the fake model servers (fake-model-servers.ts): `/v1/chat/completions`
 * over SSE, answering the requests `checkServer` makes the way each kind of server and model
 * does — native streamed tool calls or calls written as text (a server that lies), reasoning
 * in a field or in `<think>` tags, usage or none, images accepted or refused, `response_format`
 * honoured or ignored, and Ollama's silent cut of a prompt longer than its window.
 */
import type { ServerResponse } from 'node:http';

export interface FakeChatBehaviour {
  /** `native`: `delta.tool_calls`; `text`: Hermes `<tool_call>` markup in content; `none`: prose. */
  toolCalls: 'native' | 'text' | 'none';
  /** Native calls carry ids (default true). */
  ids?: boolean;
  /** Native calls' arguments arrive in pieces (default true); false: whole in one chunk. */
  streamArguments?: boolean;
  /** Both asked-for calls in one response (default true); false: only the first. */
  parallel?: boolean;
  reasoning: 'field' | 'tags' | 'none';
  /** A usage chunk when `stream_options.include_usage` (default true). */
  usage?: boolean;
  /** Takes images (default false: HTTP 400 as llama.cpp without mmproj answers). */
  images?: boolean;
  /** Honours `response_format` json_schema (default true). */
  jsonSchema?: boolean;
  /** The served window; a longer prompt is cut silently (Ollama) — reported `prompt_tokens` ≤ this. */
  window?: number;
  /** A longer prompt is refused (llama.cpp, vLLM, LM Studio) instead of cut. */
  refusesOverflow?: boolean;
}

interface ChatBody {
  model?: string;
  messages?: { role: string; content: unknown }[];
  tools?: { function: { name: string } }[];
  response_format?: unknown;
  stream_options?: { include_usage?: boolean };
}

/** The fake's token count: one per word, 4 per message of framing. */
export function fakeTokens(body: ChatBody): number {
  let tokens = 0;
  for (const message of body.messages ?? []) {
    tokens += 4;
    const text =
      typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
    tokens += text.split(/\s+/).filter(Boolean).length;
  }
  return tokens;
}

export function answerChat(
  body: ChatBody,
  behaviour: FakeChatBehaviour,
  response: ServerResponse,
): void {
  const model = body.model ?? 'model';
  const hasImage = (body.messages ?? []).some(
    (message) =>
      Array.isArray(message.content) &&
      message.content.some((part: { type?: string }) => part.type === 'image_url'),
  );
  if (hasImage && behaviour.images !== true) {
    response.writeHead(400, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        error: {
          code: 400,
          message:
            'image input is not supported - hint: if this is unexpected, you may need to provide the mmproj',
          type: 'invalid_request_error',
        },
      }),
    );
    return;
  }
  let promptTokens = fakeTokens(body);
  if (behaviour.window !== undefined && promptTokens > behaviour.window) {
    if (behaviour.refusesOverflow === true) {
      response.writeHead(400, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          error: {
            code: 400,
            message: `the request exceeds the available context size (${behaviour.window} tokens)`,
            type: 'exceed_context_size_error',
          },
        }),
      );
      return;
    }
    promptTokens = behaviour.window; // Ollama keeps the end of the prompt and says nothing
  }
  const chunks: unknown[] = [];
  const delta = (value: Record<string, unknown>, finish: string | null = null): void => {
    chunks.push({
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      model,
      choices: [{ index: 0, delta: value, finish_reason: finish }],
    });
  };
  let finish = 'stop';
  let completion = 0;
  if (body.tools && body.tools.length > 0) {
    const calls = behaviour.parallel === false ? ['Paris'] : ['Paris', 'Tokyo'];
    if (behaviour.toolCalls === 'native') {
      calls.forEach((city, index) => {
        const id = behaviour.ids === false ? {} : { id: `call_${index + 1}` };
        const args = JSON.stringify({ city });
        if (behaviour.streamArguments === false) {
          delta({
            tool_calls: [
              {
                index,
                ...id,
                type: 'function',
                function: { name: 'get_weather', arguments: args },
              },
            ],
          });
        } else {
          delta({
            tool_calls: [
              { index, ...id, type: 'function', function: { name: 'get_weather', arguments: '' } },
            ],
          });
          delta({ tool_calls: [{ index, function: { arguments: args.slice(0, 6) } }] });
          delta({ tool_calls: [{ index, function: { arguments: args.slice(6) } }] });
        }
      });
      finish = 'tool_calls';
    } else if (behaviour.toolCalls === 'text') {
      for (const city of calls)
        delta({
          content: `<tool_call>\n{"name": "get_weather", "arguments": {"city": "${city}"}}\n</tool_call>\n`,
        });
    } else {
      delta({ content: 'I cannot look up the weather.' });
    }
    completion = 24;
  } else if (body.response_format !== undefined) {
    delta({ content: behaviour.jsonSchema === false ? 'The answer is 4.' : '{"answer": "4"}' });
    completion = 6;
  } else {
    if (behaviour.reasoning === 'field') delta({ reasoning_content: 'The user wants OK.' });
    delta({
      content:
        behaviour.reasoning === 'tags'
          ? '<think>The user wants OK.</think>OK'
          : hasImage
            ? 'Red.'
            : 'OK',
    });
    completion = 8;
  }
  delta({}, finish);
  if (behaviour.usage !== false && body.stream_options?.include_usage === true) {
    chunks.push({
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      model,
      choices: [],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completion,
        total_tokens: promptTokens + completion,
      },
    });
  }
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const chunk of chunks) response.write(`data: ${JSON.stringify(chunk)}\n\n`);
  response.end('data: [DONE]\n\n');
}
