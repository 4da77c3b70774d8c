// A scripted OpenAI-compatible HTTP server for loop tests, Playwright e2e and benchmarks.
// Plain ESM JavaScript (types in fake-openai-server.d.mts) so Node 20 can run it directly:
//   node test/support/fake-openai-server.mjs --port 8787 [--echo]
// In that mode an HTTP control API scripts it: POST /__control/enqueue (body = turn or
// turn[]), POST /__control/reset, GET /__control/requests.
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { createLatency } from './latency-profile.mjs';

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type, accept',
  'access-control-max-age': '600',
  // Chrome's Private Network Access preflight (a public page calling localhost).
  'access-control-allow-private-network': 'true',
};

/**
 * Starts the server on 127.0.0.1.
 * @param {import('./fake-openai-server.mjs').FakeServerOptions} [options]
 * @returns {Promise<import('./fake-openai-server.mjs').FakeOpenAIServer>}
 */
export async function startFakeOpenAIServer(options = {}) {
  /** @type {import('./fake-openai-server.mjs').FakeTurn[]} */
  const queue = [];
  /** @type {unknown[]} */
  const requests = [];
  /** @type {Record<string, string | string[] | undefined>[]} */
  const requestHeaders = [];
  /** @type {string[]} */
  const errors = [];
  /** @type {import('./fake-openai-server.mjs').FakeResponder | undefined} */
  let responder = options.responder;
  let models = options.models ?? ['fake-model'];
  let completions = 0;
  const state = { disconnects: 0 };
  const latency = options.latency ? createLatency(options.latency) : undefined;

  const server = createServer((request, response) => {
    handle(request, response).catch((error) => {
      errors.push(String(error));
      if (!response.headersSent)
        send(response, 500, { error: { message: `fake-openai-server crashed: ${String(error)}` } });
      else response.destroy();
    });
  });

  /** @param {import('node:http').IncomingMessage} request @param {import('node:http').ServerResponse} response */
  async function handle(request, response) {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname;
    if (request.method === 'OPTIONS') {
      const asked = request.headers['access-control-request-headers'];
      response.writeHead(204, {
        ...CORS_HEADERS,
        ...(asked ? { 'access-control-allow-headers': asked } : {}),
      });
      response.end();
      return;
    }
    if (request.method === 'GET' && path === '/health')
      return send(response, 200, { status: 'ok' });
    if (request.method === 'GET' && path === '/v1/models') {
      return send(response, 200, {
        object: 'list',
        data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake' })),
      });
    }
    // Ollama's list of models in memory: with a latency profile, the model once it has loaded.
    if (request.method === 'GET' && path === '/api/ps' && latency) {
      return send(response, 200, {
        models: latency.loaded ? models.map((name) => ({ name, model: name })) : [],
      });
    }
    if (path.startsWith('/__control/')) return control(request, response, path);
    // Ollama's native chat (`api: 'ollama'`): recorded like the rest, answered in NDJSON with the
    // queued turn's text.
    if (request.method === 'POST' && path === '/api/chat') {
      const body = JSON.parse(await readBody(request));
      requests.push(body);
      requestHeaders.push(request.headers);
      completions++;
      const turn = queue.shift();
      const text = Array.isArray(turn?.text) ? turn.text.join('') : (turn?.text ?? '');
      const line = (message, done) =>
        `${JSON.stringify({ model: body.model, message: { role: 'assistant', content: message }, done, ...(done ? { done_reason: 'stop', prompt_eval_count: 12, eval_count: 4 } : {}) })}\n`;
      const ndjsonHeaders = { ...CORS_HEADERS, 'content-type': 'application/x-ndjson' };
      if (latency) {
        const admitted = await latency.admit({ body, request, response, headers: ndjsonHeaders });
        if (!admitted) return;
        response.end(line(text, false) + line('', true));
        admitted.finish();
        return;
      }
      response.writeHead(200, ndjsonHeaders);
      response.end(line(text, false) + line('', true));
      return;
    }
    if (request.method === 'POST' && path === '/v1/chat/completions') {
      const text = await readBody(request);
      let body;
      try {
        body = JSON.parse(text);
      } catch {
        errors.push(`request body is not JSON: ${text.slice(0, 200)}`);
        return send(response, 400, {
          error: { message: 'fake-openai-server: request body is not JSON' },
        });
      }
      requests.push(body);
      requestHeaders.push(request.headers);
      completions++;
      const turn =
        queue.shift() ??
        (responder ? await responder(body, { headers: request.headers }) : undefined);
      if (!turn) {
        const message = `fake-openai-server: unscripted request #${completions} (queue empty, no responder): ${JSON.stringify(body).slice(0, 300)}`;
        errors.push(message);
        console.error(message);
        return send(response, 500, { error: { message, type: 'unscripted_request' } });
      }
      return respond(request, response, turn, body);
    }
    send(response, 404, {
      error: { message: `fake-openai-server: no route ${request.method} ${path}` },
    });
  }

  /** @param {import('node:http').IncomingMessage} request @param {import('node:http').ServerResponse} response @param {string} path */
  async function control(request, response, path) {
    if (request.method === 'POST' && path === '/__control/enqueue') {
      const turns = JSON.parse((await readBody(request)) || '{}');
      queue.push(...(Array.isArray(turns) ? turns : [turns]));
      return send(response, 200, { queued: queue.length });
    }
    if (request.method === 'POST' && path === '/__control/reset') {
      reset();
      return send(response, 200, { ok: true });
    }
    if (request.method === 'POST' && path === '/__control/models') {
      models = JSON.parse(await readBody(request));
      return send(response, 200, { ok: true });
    }
    if (request.method === 'GET' && path === '/__control/requests') {
      return send(response, 200, {
        requests,
        errors,
        queued: queue.length,
        disconnects: state.disconnects,
      });
    }
    send(response, 404, {
      error: { message: `fake-openai-server: no control route ${request.method} ${path}` },
    });
  }

  function reset() {
    queue.length = 0;
    requests.length = 0;
    requestHeaders.length = 0;
    errors.length = 0;
    completions = 0;
    state.disconnects = 0;
  }

  /** @param {import('node:http').IncomingMessage} request @param {import('node:http').ServerResponse} response @param {import('./fake-openai-server.mjs').FakeTurn} turn @param {any} body */
  async function respond(request, response, turn, body) {
    if (turn.status !== undefined && turn.status >= 400) {
      const errorBody =
        turn.errorBody ?? JSON.stringify({ error: { message: `fake error ${turn.status}` } });
      response.writeHead(turn.status, {
        ...CORS_HEADERS,
        'content-type': contentTypeOf(errorBody),
        ...turn.headers,
      });
      response.end(errorBody);
      return;
    }
    let closed = false;
    response.on('close', () => {
      if (!response.writableFinished) state.disconnects++;
      closed = true;
    });
    if (turn.json !== undefined) {
      response.writeHead(turn.status ?? 200, {
        ...CORS_HEADERS,
        'content-type': 'application/json',
        ...turn.headers,
      });
      response.end(JSON.stringify(turn.json));
      return;
    }
    const streamHeaders = {
      ...CORS_HEADERS,
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      ...turn.headers,
    };
    const sequence = completions;
    let admitted;
    if (latency) {
      admitted = await latency.admit({
        body,
        request,
        response,
        headers: streamHeaders,
        // llama.cpp streams prompt-processing progress when asked (`return_progress`).
        ...(options.latency?.progress && body?.return_progress === true
          ? {
              onProgress: (progress) => {
                if (!response.headersSent) response.writeHead(200, streamHeaders);
                response.write(
                  `data: ${JSON.stringify({ choices: [], object: 'chat.completion.chunk', prompt_progress: progress })}\n\n`,
                );
              },
            }
          : {}),
      });
      if (!admitted) return;
    } else {
      response.writeHead(turn.status ?? 200, streamHeaders);
      response.flushHeaders();
    }
    const frames = turn.raw !== undefined ? [turn.raw] : sseFrames(turn, body, sequence);
    const frameMs = latency?.frameMs ?? 0;
    try {
      for (const [index, frame] of frames.entries()) {
        if (turn.delayMs) await new Promise((resolve) => setTimeout(resolve, turn.delayMs));
        else if (frameMs > 0 && index > 0)
          await new Promise((resolve) => setTimeout(resolve, frameMs));
        if (closed) return;
        response.write(frame);
      }
      if (turn.hang) return; // left open until the client disconnects or the server closes
      response.end();
    } finally {
      admitted?.finish();
    }
  }

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve(undefined));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const origin = `http://${options.host ?? '127.0.0.1'}:${port}`;

  return {
    url: `${origin}/v1`,
    origin,
    port,
    requests,
    requestHeaders,
    errors,
    latency: latency?.records ?? [],
    unloadModel() {
      latency?.unload();
    },
    get disconnects() {
      return state.disconnects;
    },
    get pending() {
      return queue.length;
    },
    enqueue(...turns) {
      queue.push(...turns);
    },
    onRequest(fn) {
      responder = fn;
    },
    setModels(list) {
      models = list;
    },
    reset,
    close() {
      return new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve(undefined));
      });
    },
  };
}

/**
 * The SSE frames for a scripted turn: reasoning and text as word deltas, tool calls as a
 * header delta plus argument pieces, the finish reason, usage, `[DONE]`.
 * @param {import('./fake-openai-server.mjs').FakeTurn} turn @param {any} request @param {number} sequence
 * @returns {string[]}
 */
export function sseFrames(turn, request, sequence = 1) {
  const base = {
    id: `chatcmpl-fake-${sequence}`,
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: request?.model ?? 'fake-model',
  };
  /** @param {Record<string, unknown>} delta @param {string | null} [finish] */
  const chunk = (delta, finish = null) => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  /** @type {unknown[]} */
  const chunks = [...(turn.chunks ?? [])];
  if (turn.chunks === undefined) {
    chunks.push(chunk({ role: 'assistant', content: '' }));
    for (const word of words(turn.reasoning)) chunks.push(chunk({ reasoning_content: word }));
    for (const word of words(turn.text)) chunks.push(chunk({ content: word }));
    (turn.toolCalls ?? []).forEach((call, index) => {
      const given = call.arguments ?? call.input; // `input` as in the lead's ScriptedTurn
      const args = typeof given === 'string' ? given : JSON.stringify(given ?? {});
      const id = call.id ?? `call_fake_${sequence}_${index}`;
      chunks.push(
        chunk({
          tool_calls: [
            { index, id, type: 'function', function: { name: call.name, arguments: '' } },
          ],
        }),
      );
      const half = Math.ceil(args.length / 2);
      for (const piece of [args.slice(0, half), args.slice(half)]) {
        if (piece) chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
      }
    });
    const finish =
      turn.finishReason === undefined
        ? turn.toolCalls?.length
          ? 'tool_calls'
          : 'stop'
        : turn.finishReason;
    if (finish !== null) chunks.push(chunk({}, finish));
    if (turn.usage) chunks.push({ ...base, choices: [], usage: wireUsage(turn.usage) });
  }
  const frames = chunks.map(
    (value) => `data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`,
  );
  if (turn.done !== false) frames.push('data: [DONE]\n\n');
  return frames;
}

/** A string becomes word deltas; an array is used delta by delta. @param {string | string[] | undefined} text */
function words(text) {
  if (Array.isArray(text)) return text;
  return text ? (text.match(/\s*\S+\s*|\s+/g) ?? []) : [];
}

/** Accepts OpenAI wire usage or the camelCase `{ promptTokens, completionTokens }`. @param {any} usage */
function wireUsage(usage) {
  if (typeof usage.promptTokens !== 'number') return usage;
  const completion = usage.completionTokens ?? 0;
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: completion,
    total_tokens: usage.promptTokens + completion,
  };
}

/** @param {string} text */
function contentTypeOf(text) {
  const first = text.trimStart()[0];
  return first === '{' || first === '['
    ? 'application/json'
    : first === '<'
      ? 'text/html'
      : 'text/plain';
}

/** @param {import('node:http').ServerResponse} response @param {number} status @param {unknown} body */
function send(response, status, body) {
  response.writeHead(status, { ...CORS_HEADERS, 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

/** @param {import('node:http').IncomingMessage} request @returns {Promise<string>} */
async function readBody(request) {
  const parts = [];
  for await (const part of request) parts.push(part);
  return Buffer.concat(parts).toString('utf8');
}

/**
 * An echo responder for demos (`--echo`): answers with the last user message.
 * @type {import('./fake-openai-server.mjs').FakeResponder}
 */
export const echoResponder = (request) => {
  const messages = Array.isArray(request?.messages) ? request.messages : [];
  const last = [...messages].reverse().find((message) => message?.role === 'user');
  return {
    text: `You said: ${typeof last?.content === 'string' ? last.content : ''}`,
    usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 },
  };
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const argument = (name) => {
    const index = process.argv.indexOf(name);
    return index === -1 ? undefined : process.argv[index + 1];
  };
  const port = Number(argument('--port') ?? process.env.FAKE_OPENAI_PORT ?? 8787);
  const server = await startFakeOpenAIServer({
    port,
    ...(argument('--host') ? { host: argument('--host') } : {}),
    ...(process.argv.includes('--echo') ? { responder: echoResponder } : {}),
  });
  console.log(`fake-openai-server listening on ${server.url}`);
  const stop = () => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
