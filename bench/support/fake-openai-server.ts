import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback, serveFile } from './static-server.js';
import {
  ADD_TOOL,
  closingAnswer,
  expectedResults,
  parseScenario,
  TEXT_PIECES,
  type Scenario,
} from '../browser/run/run-scenarios.js';

/** A running {@link serveFakeOpenAI} server. */
export interface FakeOpenAIServer {
  /** `http://127.0.0.1:<port>`; the API is under `/v1`. */
  origin: string;
  close(): Promise<void>;
}

/**
 * A fake OpenAI-compatible server on 127.0.0.1 for the `run` scenarios (see run-scenarios.ts):
 * `POST /v1/chat/completions` with `model` naming the scenario answers the next turn — checked
 * against the tool results the request carries — as one SSE body in one write, as fast as it
 * can. Bodies are built once per turn and kept. With `staticRoot`, other paths serve that
 * folder cross-origin isolated, so a bench page calls the API on its own origin (no CORS).
 */
export async function serveFakeOpenAI(staticRoot?: string): Promise<FakeOpenAIServer> {
  const bodies = new Map<string, Buffer>();
  const server = createServer((request, response) => {
    if (request.method === 'POST' && request.url === '/v1/chat/completions') {
      readBody(request).then(
        (text) => answer(text, bodies, response),
        () => response.writeHead(400).end(),
      );
    } else if (staticRoot !== undefined && request.method === 'GET') {
      serveFile(staticRoot, request, response);
    } else {
      response.writeHead(404).end();
    }
  });
  // A loop that waits seconds (the openai SDK on text-20000 on a loaded machine) must not find
  // the others' kept-alive sockets closed under a request they have just sent ("other side
  // closed"): keep idle connections longer than any run.
  server.keepAliveTimeout = 120_000;
  return listenOnLoopback(server);
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    request.on('error', reject);
  });
}

function answer(text: string, bodies: Map<string, Buffer>, response: ServerResponse): void {
  const request = JSON.parse(text) as {
    model?: string;
    messages?: { role: string; content?: unknown }[];
  }; // our own loops' requests; checked below
  const scenario = parseScenario(request.model ?? '');
  if (scenario === undefined) {
    response
      .writeHead(404, { 'content-type': 'application/json' })
      .end(JSON.stringify({ error: { message: `unknown model ${request.model}` } }));
    return;
  }
  const results = (request.messages ?? [])
    .filter((message) => message.role === 'tool')
    .map((message) => message.content);
  const expected = expectedResults(scenario).slice(0, results.length);
  const turn = results.join() === expected.join() ? `${request.model}:${results.length}` : 'wrong';
  let body = bodies.get(turn);
  if (body === undefined) {
    body = Buffer.from(
      turn === 'wrong'
        ? textBody(['wrong tool results: ', results.join()])
        : turnBody(scenario, results.length),
      'utf8',
    );
    bodies.set(turn, body);
  }
  // One write: headers and the whole body leave together, as fast as the socket takes them.
  response.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    'content-length': body.length,
  });
  response.end(body);
}

function frame(
  delta: Record<string, unknown>,
  finishReason: string | null = null,
  extra: Record<string, unknown> = {},
): string {
  const chunk = {
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 1_760_000_000,
    model: 'bench',
    system_fingerprint: 'fp_bench',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
    ...extra,
  };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

function finish(reason: string, completionTokens: number): string {
  const usage = {
    prompt_tokens: 40,
    completion_tokens: completionTokens,
    total_tokens: 40 + completionTokens,
  };
  return `${frame({}, reason, { usage })}data: [DONE]\n\n`;
}

function textBody(pieces: readonly string[]): string {
  let body = frame({ role: 'assistant', content: '' });
  for (const piece of pieces) body += frame({ content: piece });
  return body + finish('stop', pieces.length);
}

/** Call `index` of a response: opened with id and name, arguments in two pieces (as vLLM and llama.cpp stream them). */
function callFrames(index: number, position: number, input: { a: number; b: number }): string {
  const args = JSON.stringify(input);
  const half = args.length >> 1;
  const id = `call_${index}`;
  return (
    frame({
      tool_calls: [
        { index: position, id, type: 'function', function: { name: ADD_TOOL.name, arguments: '' } },
      ],
    }) +
    frame({ tool_calls: [{ index: position, function: { arguments: args.slice(0, half) } }] }) +
    frame({ tool_calls: [{ index: position, function: { arguments: args.slice(half) } }] })
  );
}

/** The answer to the request that carries `resultCount` tool results. */
function turnBody(scenario: Scenario, resultCount: number): string {
  switch (scenario.kind) {
    case 'text': {
      const pieces: string[] = [];
      for (let index = 0; index < scenario.deltas; index++)
        pieces.push(TEXT_PIECES[index % TEXT_PIECES.length] ?? '');
      return textBody(pieces);
    }
    case 'tool-loop': {
      if (resultCount >= scenario.rounds) return textBody(splitAnswer(closingAnswer(scenario)));
      const previous = (resultCount * (resultCount + 1)) / 2;
      return (
        frame({ role: 'assistant', content: null }) +
        callFrames(resultCount, 0, { a: previous, b: resultCount + 1 }) +
        finish('tool_calls', 12)
      );
    }
    case 'parallel': {
      if (resultCount > 0) return textBody(splitAnswer(closingAnswer(scenario)));
      let body = frame({ role: 'assistant', content: null });
      for (let index = 0; index < scenario.calls; index++)
        body += callFrames(index, index, { a: index, b: index + 1 });
      return body + finish('tool_calls', 12 * scenario.calls);
    }
  }
}

function splitAnswer(text: string): string[] {
  return text.match(/.{1,4}/gsu) ?? [];
}
