import type { ServerCheck } from './check-server.js';

/**
 * CORS for `origin`: in a page, the detection's own requests prove it (the browser let the
 * page read them) — `readable` tells; elsewhere (Node, the doctor) a preflight for the chat
 * request is sent with that `Origin`, as a browser would, and its answer is read.
 */
export async function checkCors(options: {
  baseURL: string;
  origin: string;
  inPage: boolean;
  fetch: typeof globalThis.fetch;
  signal?: AbortSignal | undefined;
}): Promise<ServerCheck> {
  const { baseURL, origin } = options;
  if (new URL(baseURL).origin === origin)
    return {
      id: 'cors',
      status: 'pass',
      detail: `The page and the server share the origin ${origin}: no CORS needed.`,
    };
  if (options.inPage)
    return {
      id: 'cors',
      status: 'pass',
      detail: `The server lets this page (${origin}) read its answers.`,
    };
  let allowed: string | null = null;
  let headers: string | null = null;
  try {
    const response = await options.fetch(`${baseURL}/chat/completions`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
      ...(options.signal ? { signal: options.signal } : {}),
    });
    await response.body?.cancel();
    allowed = response.headers.get('access-control-allow-origin');
    headers = response.headers.get('access-control-allow-headers');
  } catch {
    // Unanswered preflight: reported below as not allowed.
  }
  if (allowed !== '*' && allowed !== origin) {
    return {
      id: 'cors',
      status: 'fail',
      detail: `A page at ${origin} cannot read this server: its preflight answer ${allowed === null ? 'has no Access-Control-Allow-Origin' : `allows ${allowed} only`}.`,
      fix: corsFix(baseURL, origin),
    };
  }
  const lower = (headers ?? '').toLowerCase();
  if (
    headers !== null &&
    lower !== '*' &&
    !(lower.includes('content-type') && lower.includes('authorization'))
  ) {
    return {
      id: 'cors',
      status: 'fail',
      detail: `The server allows ${origin}, but not the headers a chat request sends (allowed: ${headers}).`,
      fix: corsFix(baseURL, origin),
    };
  }
  return {
    id: 'cors',
    status: 'pass',
    detail: `The server allows pages at ${origin} (Access-Control-Allow-Origin: ${allowed}).`,
  };
}

function corsFix(baseURL: string, origin: string): string {
  const port = new URL(baseURL).port;
  if (port === '11434') return `Start Ollama with \`OLLAMA_ORIGINS=${origin}\`.`;
  if (port === '1234') return 'In LM Studio, Developer → Server settings: turn on "Enable CORS".';
  if (port === '8080')
    return `llama-server allows every origin; a proxy in front of it must send \`Access-Control-Allow-Origin: ${origin}\`.`;
  if (port === '8000') return `Start vLLM with \`--allowed-origins '["${origin}"]'\`.`;
  return `Make the server (or its proxy) answer with \`Access-Control-Allow-Origin: ${origin}\` and allow the headers authorization and content-type.`;
}

/**
 * Chrome's Local Network Access (142+): a public site that calls a local or loopback address
 * needs the visitor's permission ("Access other apps and services on this device" / "local
 * network"); a visitor who says no sees a network error, like CORS. Local pages are exempt.
 */
export function checkLocalNetworkAccess(baseURL: string, origin: string): ServerCheck {
  const server = addressSpace(new URL(baseURL).hostname);
  const page = addressSpace(safeHost(origin));
  if (server === 'public' || page !== 'public') {
    return {
      id: 'local-network-access',
      status: 'pass',
      detail: `The page (${page}) reaches a ${server} address: no Local Network Access prompt.`,
    };
  }
  return {
    id: 'local-network-access',
    status: 'warn',
    detail: `A public page (${origin}) calling a ${server} address: Chrome asks each visitor to allow local network access, and the requests fail for one who does not.`,
    fix: 'Tell visitors to allow "local network access" for the site when Chrome asks, or serve the page from the same machine or network (http://localhost…).',
  };
}

function safeHost(origin: string): string {
  try {
    return new URL(origin).hostname;
  } catch {
    return '';
  }
}

function addressSpace(host: string): 'loopback' | 'local' | 'public' {
  const name = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name === '::1' ||
    name.startsWith('127.')
  )
    return 'loopback';
  if (
    /^(10\.|192\.168\.|169\.254\.|172\.(1[6-9]|2\d|3[01])\.)/.test(name) ||
    name.endsWith('.local') ||
    /^f[cd]/.test(name)
  )
    return 'local';
  return 'public';
}
