/**
 * Fake local servers that behave as each real one does at the edge of its context window:
 * they report the window where the real server does, count prompt tokens with their own
 * "tokenizer" (3.5 characters a token, not the client's 4, so the client must calibrate),
 * and treat an over-long prompt the way each does — llama.cpp and vLLM refuse with their
 * messages, LM Studio refuses, Ollama cuts the front silently and answers 200 with the
 * truncated count. The model calls `lookup` once per user prompt, then answers.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeKind = 'llama.cpp' | 'vllm' | 'lmstudio' | 'ollama';

export interface ContextServerOptions {
  kind: FakeKind;
  model: string;
  /** The window the model is served with. */
  window: number;
  /** Ollama: whether `/api/ps` lists the model (an old server or an unloaded model does not). */
  listed?: boolean;
  /** Ollama: the trained maximum `/api/show` reports. */
  trainedMax?: number;
  /** `false`: llama.cpp `/props` and vLLM `/v1/models` leave the window out (an old build, a proxy). */
  reportsWindow?: boolean;
  /**
   * Whether the model takes images, reported where the real server does: llama.cpp `/props`
   * `modalities.vision`, Ollama `/api/show` `capabilities`, LM Studio `type` (`vlm`/`llm`);
   * each refuses a request with an image as the real one does. Undefined: not reported (vLLM
   * never says) and not refused.
   */
  vision?: boolean;
  /**
   * The fake tokenizer's characters per token (default 3.5): lower is a denser tokenizer (code,
   * JSON, CJK text), which the client's 4-characters estimate undercounts until calibrated.
   */
  charsPerToken?: number;
  /**
   * llama.cpp and vLLM: answer `POST /tokenize` as the real server does (default true), with
   * the same count as the chat's `prompt_tokens`. Ollama and LM Studio have no such endpoint.
   */
  tokenizes?: boolean;
  /** llama.cpp: the model's chat template, reported in `/props` `chat_template` as the real server does. */
  chatTemplate?: string;
  /** Ollama: `/api/show` lists the `thinking` capability (Ollama then moves the thought out of `content`). */
  thinking?: boolean;
  /** Every chat is answered with these content deltas (no tool call), one chunk each. */
  answer?: readonly string[];
}

export interface RecordedChat {
  path: string;
  body: {
    messages: {
      role: string;
      content: unknown;
      tool_calls?: { id?: string }[];
      tool_call_id?: string;
    }[];
    tools?: unknown[];
    max_tokens?: number;
    options?: { num_ctx?: number; num_predict?: number };
  };
  promptTokens: number;
  /** What the server did with it. */
  outcome: 'answered' | 'refused' | 'truncated';
}

export interface ContextServer {
  url: string;
  origin: string;
  chats: RecordedChat[];
  /** GET/POST paths other than chat, in order. */
  probes: string[];
  /** Every request, chat too, in order of answer: `STATUS METHOD /path`. */
  log: string[];
  close(): Promise<void>;
}

/** The fake's token count: 3.5 characters a token (`charsPerToken`), 17.5 characters of framing per message. */
export function serverTokens(body: RecordedChat['body'], charsPerToken = 3.5): number {
  let chars = 0;
  for (const message of body.messages) {
    chars += 17.5 + JSON.stringify(message.content ?? '').length;
    for (const call of message.tool_calls ?? []) chars += JSON.stringify(call).length;
  }
  if (body.tools) chars += JSON.stringify(body.tools).length;
  return Math.ceil(chars / charsPerToken);
}

function hasImage(body: RecordedChat['body']): boolean {
  return body.messages.some(
    (message) =>
      (Array.isArray(message.content) &&
        message.content.some((part: { type?: string }) => part.type === 'image_url')) ||
      Array.isArray((message as { images?: unknown }).images),
  );
}

/** `owned_by` in each server's `/v1/models`: llama-server `llamacpp`, vLLM `vllm`, LM Studio `organization_owner`, Ollama the namespace (`library` for its own models). */
const OWNED_BY: Record<FakeKind, string> = {
  'llama.cpp': 'llamacpp',
  vllm: 'vllm',
  lmstudio: 'organization_owner',
  ollama: 'library',
};

/** Each server's `system_fingerprint` in a chunk: llama-server its build, Ollama `fp_ollama`, LM Studio the model; vLLM none. */
const FINGERPRINT: Partial<Record<FakeKind, (model: string) => string>> = {
  'llama.cpp': () => 'b7200-0c53b2a',
  ollama: () => 'fp_ollama',
  lmstudio: (model) => model,
};

export async function startContextServer(options: ContextServerOptions): Promise<ContextServer> {
  const chats: RecordedChat[] = [];
  const probes: string[] = [];
  const log: string[] = [];
  let calls = 0;
  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      response.writeHead(500).end(String(error));
    });
  });
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let raw = '';
    for await (const piece of request) raw += String(piece);
    const path = (request.url ?? '').split('?')[0] ?? '';
    response.on('finish', () => log.push(`${response.statusCode} ${request.method} ${path}`));
    const json = (status: number, value: unknown): void => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    };
    if (path === '/v1/chat/completions' || path === '/api/chat')
      return chat(path, JSON.parse(raw) as RecordedChat['body'], response, json);
    probes.push(`${request.method} ${path}`);
    const { kind, model, window } = options;
    if (
      (kind === 'llama.cpp' || kind === 'vllm') &&
      options.tokenizes !== false &&
      path === '/tokenize'
    ) {
      // llama.cpp: {content} → {tokens}; vLLM: {model, prompt} → {count, tokens, max_model_len}.
      const body = JSON.parse(raw) as { content?: string; prompt?: string };
      const text = (kind === 'vllm' ? body.prompt : body.content) ?? '';
      const tokens = Array.from(
        { length: Math.ceil(text.length / (options.charsPerToken ?? 3.5)) },
        (_, index) => index,
      );
      return json(
        200,
        kind === 'vllm' ? { count: tokens.length, tokens, max_model_len: window } : { tokens },
      );
    }
    if (options.reportsWindow === false && kind !== 'ollama')
      return json(404, { error: 'not found' });
    if (kind === 'llama.cpp' && path === '/props')
      return json(200, {
        default_generation_settings: { n_ctx: window },
        total_slots: 1,
        ...(options.chatTemplate === undefined ? {} : { chat_template: options.chatTemplate }),
        ...(options.vision === undefined
          ? {}
          : { modalities: { vision: options.vision, audio: false } }),
      });
    // Every kind lists its models at /v1/models; `owned_by` is each server's own word.
    if (path === '/v1/models')
      return json(200, {
        object: 'list',
        data: [
          {
            id: model,
            object: 'model',
            owned_by: OWNED_BY[kind],
            ...(kind === 'vllm' ? { max_model_len: window } : {}),
          },
        ],
      });
    if (kind === 'lmstudio' && path === '/api/v0/models')
      return json(200, {
        data: [
          {
            id: model,
            type: options.vision === true ? 'vlm' : 'llm',
            state: 'loaded',
            max_context_length: 131072,
            loaded_context_length: window,
          },
        ],
      });
    if (kind === 'ollama' && path === '/api/ps')
      return json(200, {
        models: options.listed === false ? [] : [{ name: model, model, context_length: window }],
      });
    if (kind === 'ollama' && path === '/api/show')
      return json(200, {
        model_info: {
          'general.architecture': 'qwen3',
          'qwen3.context_length': options.trainedMax ?? 40960,
        },
        ...(options.vision === undefined && options.thinking === undefined
          ? {}
          : {
              capabilities: [
                'completion',
                'tools',
                ...(options.vision === true ? ['vision'] : []),
                ...(options.thinking === true ? ['thinking'] : []),
              ],
            }),
      });
    json(404, { error: 'not found' });
  }
  function chat(
    path: string,
    body: RecordedChat['body'],
    response: ServerResponse,
    json: (status: number, value: unknown) => void,
  ): void {
    const native = path === '/api/chat';
    const window = native && body.options?.num_ctx ? body.options.num_ctx : options.window;
    let promptTokens = serverTokens(body, options.charsPerToken);
    const maxTokens = native ? (body.options?.num_predict ?? 0) : (body.max_tokens ?? 0);
    const record: RecordedChat = { path, body, promptTokens, outcome: 'answered' };
    chats.push(record);
    if (options.vision === false && hasImage(body)) {
      record.outcome = 'refused';
      const refusals: Record<FakeKind, string> = {
        'llama.cpp':
          'image input is not supported - hint: if this is unexpected, you may need to provide the mmproj',
        ollama: 'this model is missing data required for image input',
        lmstudio: 'Model does not support images. Please use a model that does.',
        vllm: `${options.model} is not a multimodal model`,
      };
      return json(500, {
        error: { code: 500, message: refusals[options.kind], type: 'server_error' },
      });
    }
    if (options.kind === 'llama.cpp' && promptTokens > window) {
      record.outcome = 'refused';
      return json(400, {
        error: {
          code: 400,
          type: 'exceed_context_size_error',
          message: `request (${promptTokens} tokens) exceeds the available context size (${window} tokens), try increasing it`,
        },
      });
    }
    if (options.kind === 'vllm' && promptTokens + maxTokens > window) {
      record.outcome = 'refused';
      return json(400, {
        object: 'error',
        type: 'BadRequestError',
        code: 400,
        message: `This model's maximum context length is ${window} tokens. However, you requested ${promptTokens + maxTokens} tokens (${promptTokens} in the messages, ${maxTokens} in the completion). Please reduce the length of the messages or completion.`,
      });
    }
    if (options.kind === 'lmstudio' && promptTokens > window) {
      record.outcome = 'refused';
      return json(400, {
        error: `The number of tokens to keep from the initial prompt is greater than the context length (${window}).`,
      });
    }
    if (options.kind === 'ollama' && promptTokens > window) {
      // Ollama keeps the first few tokens and the newest half of the window: 200, truncated count.
      record.outcome = 'truncated';
      promptTokens = Math.floor(window / 2) + 3;
    }
    calls += 1;
    const last = body.messages.at(-1);
    // A user message right after tool results carries their images: not a new prompt.
    const call =
      options.answer === undefined && last?.role === 'user' && body.messages.at(-2)?.role !== 'tool'
        ? { id: `call_${calls}`, name: 'lookup', arguments: { topic: `t${calls}` } }
        : undefined;
    const text = call ? '' : `Answer ${calls}: ${'words '.repeat(20)}`;
    if (native) {
      response.writeHead(200, { 'content-type': 'application/x-ndjson' });
      response.end(
        `${JSON.stringify({ model: options.model, message: { role: 'assistant', content: text, ...(call ? { tool_calls: [{ function: { name: call.name, arguments: call.arguments } }] } : {}) }, done: true, done_reason: 'stop', prompt_eval_count: promptTokens, eval_count: 30 })}\n`,
      );
      return;
    }
    const fingerprint = FINGERPRINT[options.kind]?.(options.model);
    const chunk = (delta: unknown, finish: string | null = null): string =>
      `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', model: options.model, ...(fingerprint ? { system_fingerprint: fingerprint } : {}), choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.end(
      (call
        ? chunk(
            {
              role: 'assistant',
              tool_calls: [
                {
                  index: 0,
                  id: call.id,
                  type: 'function',
                  function: { name: call.name, arguments: JSON.stringify(call.arguments) },
                },
              ],
            },
            'tool_calls',
          )
        : (options.answer ?? [text])
            .map((content, index) =>
              chunk(index === 0 ? { role: 'assistant', content } : { content }),
            )
            .join('') + chunk({}, 'stop')) +
        `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: promptTokens, completion_tokens: 30, total_tokens: promptTokens + 30 } })}\n\ndata: [DONE]\n\n`,
    );
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo; // listening on TCP: an AddressInfo
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/v1`,
    origin,
    chats,
    probes,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
