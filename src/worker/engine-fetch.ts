import type {
  QuickJSContext,
  QuickJSDeferredPromise,
  QuickJSHandle,
} from 'quickjs-emscripten-core';
import { errorMessage } from '../errors/agent-error.js';
import { sandboxFetch, type SandboxFetchRequest } from './sandbox-fetch.js';

/** What a run keeps of the host work its code awaits. */
export interface EngineFetchRun {
  readonly context: QuickJSContext;
  /** The origins the app granted (`fetchOrigins`). */
  readonly origins: readonly string[];
  /** Aborted when the run ends: stops host work still in flight, and nothing is settled after. */
  readonly ended: AbortSignal;
  /** Engine promises waiting on the host (freed when the run ends). */
  readonly deferreds: Set<QuickJSDeferredPromise>;
  /** Host work in flight (the run waits for it). */
  readonly operations: Set<Promise<void>>;
}

/**
 * The granted `fetch` (`fetchOrigins`): an engine promise the worker settles with the
 * response as JSON text (the prelude builds the Response-like object), or a TypeError.
 */
export function engineFetch(
  run: EngineFetchRun,
  handles: Record<keyof SandboxFetchRequest, QuickJSHandle | undefined>,
): QuickJSHandle {
  const { context } = run;
  const text = (handle: QuickJSHandle | undefined) =>
    handle && context.typeof(handle) === 'string' ? context.getString(handle) : undefined;
  let headers: Record<string, string> = {};
  try {
    const parsed: unknown = JSON.parse(text(handles.headers) ?? '{}');
    if (typeof parsed === 'object' && parsed !== null) {
      headers = Object.fromEntries(
        Object.entries(parsed).filter(
          (entry): entry is [string, string] => typeof entry[1] === 'string',
        ),
      );
    }
  } catch {
    headers = {};
  }
  const request = {
    url: text(handles.url) ?? '',
    method: text(handles.method) ?? 'GET',
    headers,
    body: text(handles.body),
  };
  const deferred = context.newPromise();
  run.deferreds.add(deferred);
  const settle = (outcome: { ok: true; json: string } | { ok: false; message: string }) => {
    if (run.ended.aborted) return;
    run.deferreds.delete(deferred);
    const value = outcome.ok
      ? context.newString(outcome.json)
      : context.newError({ name: 'TypeError', message: outcome.message });
    if (outcome.ok) deferred.resolve(value);
    else deferred.reject(value);
    value.dispose();
  };
  const operation = sandboxFetch(request, run.origins, run.ended).then(
    (response) => settle({ ok: true, json: JSON.stringify(response) }),
    (error: unknown) => settle({ ok: false, message: errorMessage(error) }),
  );
  run.operations.add(operation);
  void operation.finally(() => run.operations.delete(operation));
  return deferred.handle;
}
