import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** `http://127.0.0.1:<port>` of the server that records every request (test/browser/sandbox-attacks.test.ts). */
    recorderOrigin: string;
  }
}

/**
 * Vitest global setup of the browser project: a loopback HTTP server on a random port that
 * records every request and WebSocket upgrade it receives, and answers each with a tiny
 * JavaScript module (so an escaped `import()` or `importScripts` would succeed and show);
 * `/redirect…` answers a redirect to another origin.
 * `GET /__control/requests` lists what was recorded, `POST /__control/reset` clears it; those
 * two are the only requests not recorded.
 */
export default async function startRecordingServer(
  project: TestProject,
): Promise<() => Promise<void>> {
  const recorded: string[] = [];
  const server = createServer((request, response) => {
    const url = request.url ?? '';
    response.setHeader('access-control-allow-origin', '*');
    response.setHeader('access-control-allow-headers', '*');
    response.setHeader('access-control-allow-methods', '*');
    response.setHeader('access-control-expose-headers', 'x-recorded');
    if (url === '/__control/requests') {
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(recorded));
      return;
    }
    if (url === '/__control/reset' && request.method === 'POST') {
      recorded.length = 0;
      response.end();
      return;
    }
    recorded.push(`${request.method ?? '?'} ${url}`);
    if (url.startsWith('/redirect')) {
      // Somewhere else: a granted fetch must not follow it.
      response.writeHead(302, { location: 'http://127.0.0.1:9/elsewhere' }).end();
      return;
    }
    response.setHeader('content-type', 'text/javascript');
    response.setHeader('x-recorded', String(recorded.length));
    response.end('export default "escaped"; globalThis.escaped = true;');
  });
  server.on('upgrade', (request, socket) => {
    recorded.push(`UPGRADE ${request.url ?? ''}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo; // a TCP server's address is an AddressInfo
  project.provide('recorderOrigin', `http://127.0.0.1:${port}`);
  return () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}
