import { createServer, type ServerResponse } from 'node:http';
import { hostileDeltas, parsePacedModel } from '../browser/chat/hostile-answers.js';
import { listenOnLoopback, serveFile, type StaticServer } from './static-server.js';

/**
 * Serves `staticRoot` (cross-origin isolated, like serveStatic) and, on the same origin, an
 * OpenAI-compatible `POST /v1/chat/completions` that streams the hostile answer its `model`
 * names ({@link parsePacedModel}) as SSE, one delta per frame, a frame every `intervalMs` —
 * a model producing text at that pace, over a real HTTP response the page reads with `fetch`.
 */
export async function servePacedAnswers(staticRoot: string): Promise<StaticServer> {
  const server = createServer((request, response) => {
    if (request.method === 'POST' && request.url === '/v1/chat/completions') {
      const parts: Buffer[] = [];
      request.on('data', (part: Buffer) => parts.push(part));
      request.on('end', () => answer(Buffer.concat(parts).toString('utf8'), response));
    } else if (request.method === 'GET') {
      serveFile(staticRoot, request, response);
    } else {
      response.writeHead(404).end();
    }
  });
  return listenOnLoopback(server);
}

function answer(body: string, response: ServerResponse): void {
  const request = JSON.parse(body) as { model?: unknown }; // our own page's request; the model is checked below
  const paced = parsePacedModel(typeof request.model === 'string' ? request.model : '');
  if (!paced) {
    response
      .writeHead(404, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { message: 'unknown model' } }));
    return;
  }
  const frames = [
    frame({ role: 'assistant', content: '' }),
    ...hostileDeltas(paced.answer, paced.deltaSize).map((content) => frame({ content })),
  ];
  const end = `${frame({}, 'stop')}data: [DONE]\n\n`;
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.flushHeaders();
  // Frame `index` is due at start + index × interval. A timer that fires late writes every frame
  // due by then, so lateness does not accumulate (as a socket's buffer would deliver them).
  const start = performance.now();
  let next = 0;
  const write = () => {
    const due = Math.min(
      frames.length,
      Math.floor((performance.now() - start) / paced.intervalMs) + 1,
    );
    for (; next < due; next++) response.write(frames[next]);
    if (next < frames.length)
      setTimeout(write, Math.max(0, start + next * paced.intervalMs - performance.now()));
    else response.end(end);
  };
  response.on('close', () => (next = frames.length + 1));
  write();
}

function frame(delta: Record<string, unknown>, finishReason: string | null = null): string {
  const chunk = {
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 1_760_000_000,
    model: 'bench',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
  };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}
