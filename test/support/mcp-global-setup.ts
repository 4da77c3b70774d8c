import type { TestProject } from 'vitest/node';
import { startEverythingServer, startHttpServer, type RunningServer } from './mcp-servers.js';

/** URLs of the servers the browser tests reach cross-origin (from the Vitest page's origin). */
export interface McpTestServers {
  /** server-everything, Streamable HTTP; CORS allows any origin and exposes Mcp-Session-Id. */
  everything: string;
  /** Answers 401 with CORS headers (so the page can read the status). */
  unauthorized: string;
  /** Answers every request without any CORS header: the browser blocks the page. */
  noCors: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    mcpServers: McpTestServers;
  }
}

const cors = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': '*',
  'access-control-allow-methods': 'GET, POST, DELETE',
  'access-control-expose-headers': 'mcp-session-id',
};

/**
 * Vitest globalSetup for the browser project: starts the servers on 127.0.0.1 (OS-chosen
 * ports) before the tests and stops them after.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const servers: RunningServer[] = [];
  try {
    const everything = await startEverythingServer();
    servers.push(everything);
    const unauthorized = await startHttpServer((request, response) => {
      if (request.method === 'OPTIONS') {
        response.writeHead(204, cors).end();
        return;
      }
      response.writeHead(401, { ...cors, 'www-authenticate': 'Bearer' }).end('unauthorized');
    });
    servers.push(unauthorized);
    const noCors = await startHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    servers.push(noCors);
    project.provide('mcpServers', {
      everything: everything.url,
      unauthorized: unauthorized.url,
      noCors: noCors.url,
    });
  } catch (error) {
    await Promise.all(servers.map((server) => server.stop()));
    throw error;
  }
  return async () => {
    await Promise.all(servers.map((server) => server.stop()));
  };
}
