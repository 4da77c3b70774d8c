import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';

/** A server the tests started on 127.0.0.1 and stop after. */
export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

const require = createRequire(import.meta.url);

/**
 * `@modelcontextprotocol/server-everything` in its Streamable HTTP mode (`/mcp`), or its legacy
 * HTTP+SSE mode (`/sse`), on a free port of 127.0.0.1. Its CORS allows any origin.
 */
export async function startEverythingServer(
  mode: 'streamableHttp' | 'sse' = 'streamableHttp',
): Promise<RunningServer & { child: ChildProcess }> {
  const entry = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
  const preload = new URL('./listen-on-loopback.mjs', import.meta.url).href;
  const child = spawn(process.execPath, ['--import', preload, entry, mode], {
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const port = await new Promise<number | undefined>((resolve) => {
    let log = '';
    child.stderr?.on('data', (data: Buffer) => {
      log += data.toString();
      const match = /LISTENING (\d+)/.exec(log);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', () => resolve(undefined));
  });
  if (port === undefined) throw new Error(`server-everything (${mode}) did not start`);
  const path = mode === 'sse' ? '/sse' : '/mcp';
  return { url: `http://127.0.0.1:${port}${path}`, child, stop: () => stopChild(child) };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** An HTTP server on a free port of 127.0.0.1 that answers every request with `handler`. */
export async function startHttpServer(
  handler: Parameters<typeof createServer>[1],
): Promise<RunningServer & { server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo; // listening on TCP: an AddressInfo
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    server,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
