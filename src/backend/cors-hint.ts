/**
 * Why a page probably could not reach a local model server, and how to fix it for each
 * server, or undefined when CORS is not a likely cause (a remote URL, or the same origin).
 * Pure. Loaded by `import()` on the failure it explains: a `NETWORK_ERROR`'s message and
 * `discoverEndpoints()`'s `fix` carry it (it is not on the public entry, so no app ships it first).
 *
 * The server is guessed from the port (11434 Ollama, 1234 LM Studio, 8080 llama.cpp,
 * 8000 vLLM); for any other port every fix is listed. A public page calling a local address
 * meets Chrome's Local Network Access prompt (Chrome 142+): its denial (`localNetworkAccess`,
 * see {@link localNetworkPermission}) comes first, with how to allow it, whatever the page's
 * address looks like to us; else a public page gets a line on where to allow it. A denied request fails as any unreachable one
 * ("Failed to fetch"): only the permission's state tells them apart.
 *
 * @example
 * corsHint('http://localhost:11434/v1', 'http://localhost:5173');
 * // → 'The page (http://localhost:5173) may be blocked by CORS: … start Ollama with OLLAMA_ORIGINS=http://localhost:5173 …'
 */
export function corsHint(
  url: string,
  pageOrigin: string | undefined,
  localNetworkAccess?: PermissionState,
): string | undefined {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return undefined;
  }
  if (!isLocalHost(target.hostname)) return undefined;
  if (pageOrigin !== undefined && pageOrigin === target.origin) return undefined;
  const known = pageOrigin !== undefined && pageOrigin !== 'null'; // file:// pages have the origin "null"
  const origin = known ? pageOrigin : '*';
  const fixes = serverFixes(origin);
  const guessed = fixes.find((fix) => fix.port === portOf(target));
  const chosen = guessed ? [guessed] : fixes;
  const page = known ? `this page (${pageOrigin})` : 'this page';
  const publicPage = known && !isLocalOrigin(pageOrigin);
  const lines = [
    `The server did not answer, or it does not allow requests from ${page} (CORS). Check that it is running at ${target.origin}, then allow this origin:`,
    ...chosen.map((fix) => `- ${fix.name}: ${fix.advice}`),
  ];
  // The permission's state is the browser's own word: a page we take for local may count as
  // public to it (a proxy, a tunnel, an address-space override), so a denial leads either way.
  if (localNetworkAccess === 'denied') {
    lines.unshift(
      `The browser blocked ${page} from reaching ${target.origin}: its Local Network Access permission is denied. Allow it (the icon left of the address bar → Site settings → Local network access → Allow), then reload the page.\n\nIf it still fails:`,
    );
  } else if (publicPage) {
    lines.push(
      '- Chrome 142+ asks before a public page reaches this machine or network (Local Network Access): if that prompt was dismissed or blocked, allow it in the site settings (the icon left of the address bar), then reload.',
    );
  }
  if (
    pageOrigin?.startsWith('https:') &&
    target.protocol === 'http:' &&
    !isLoopback(target.hostname)
  ) {
    lines.push(
      '- An https page cannot call a plain-http LAN address (mixed content): serve the page over http, or put the server behind https.',
    );
  }
  return lines.join('\n');
}

/**
 * The page's Local Network Access permission for `url` (Chrome 142+: `loopback-network` for
 * this machine, `local-network` for the LAN, `local-network-access` before they were split),
 * or undefined where the browser has no such permission. Never throws.
 */
export async function localNetworkPermission(url: string): Promise<PermissionState | undefined> {
  const permissions = (globalThis as { navigator?: { permissions?: Permissions } }).navigator
    ?.permissions; // absent in Node and workers without it
  if (!permissions) return undefined;
  let loopback = false;
  try {
    loopback = isLoopback(new URL(url).hostname);
  } catch {
    return undefined;
  }
  for (const name of [loopback ? 'loopback-network' : 'local-network', 'local-network-access']) {
    try {
      // Names newer than TypeScript's DOM types; an unknown name throws a TypeError.
      return (await permissions.query({ name: name as PermissionName })).state;
    } catch {
      // not this browser's name: the next one
    }
  }
  return undefined;
}

function isLocalOrigin(origin: string): boolean {
  try {
    return isLocalHost(new URL(origin).hostname);
  } catch {
    return false;
  }
}

interface ServerFix {
  port: string;
  name: string;
  advice: string;
}

function serverFixes(origin: string): ServerFix[] {
  return [
    {
      port: '11434',
      name: 'Ollama',
      advice: `restart it with OLLAMA_ORIGINS=${origin} (e.g. \`OLLAMA_ORIGINS=${origin} ollama serve\`; use * to allow any page).`,
    },
    {
      port: '1234',
      name: 'LM Studio',
      advice:
        'enable CORS in the Developer → Server settings, or start it with `lms server start --cors`.',
    },
    {
      port: '8080',
      name: 'llama.cpp llama-server',
      advice:
        'it sends CORS headers by default, so check the URL and port (and the path if you started it with --api-prefix).',
    },
    { port: '8000', name: 'vLLM', advice: `start it with --allowed-origins '["${origin}"]'.` },
  ];
}

function portOf(url: URL): string {
  if (url.port) return url.port;
  return url.protocol === 'https:' ? '443' : '80';
}

/** Loopback names and addresses: localhost, *.localhost, 127.0.0.0/8, ::1. */
function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '::1' ||
    /^127\.\d+\.\d+\.\d+$/.test(host)
  );
}

/**
 * True for hosts on this machine or the local network: loopback, `0.0.0.0`, `*.local`
 * (mDNS), RFC 1918 ranges, link-local, and IPv6 unique-local / link-local addresses.
 */
export function isLocalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (isLoopback(host) || host === '0.0.0.0' || host.endsWith('.local')) return true;
  const octets = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(host);
  if (octets) {
    const first = Number(octets[1]);
    const second = Number(octets[2]);
    return (
      first === 10 ||
      (first === 172 && second >= 16 && second <= 31) ||
      (first === 192 && second === 168) ||
      (first === 169 && second === 254)
    );
  }
  return /^f[cd][0-9a-f]{2}:/.test(host) || /^fe[89ab][0-9a-f]:/.test(host);
}

// Where the hint is wanted, so is the origin it is for: loaded together, on the failure.
export { pageOrigin } from './page-origin.js';
