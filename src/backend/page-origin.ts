/**
 * The page's origin when this code runs in a page or a worker (where CORS applies), else
 * undefined (Node, Deno: no CORS).
 */
export function pageOrigin(): string | undefined {
  const scope = globalThis as {
    document?: unknown;
    importScripts?: unknown;
    location?: { origin?: unknown };
  };
  const inPage =
    scope.document !== undefined || typeof scope.importScripts === 'function' || isWorkerScope();
  if (!inPage) return undefined;
  return typeof scope.location?.origin === 'string' ? scope.location.origin : 'null';
}

function isWorkerScope(): boolean {
  // Module workers have no importScripts; WorkerGlobalScope exists in every worker.
  return typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope === 'function';
}
