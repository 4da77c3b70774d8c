import { AgentError } from '../errors/agent-error.js';
import {
  isSchemaInput,
  tool,
  type JsonSchema,
  type NeedsApproval,
  type ObjectSchema,
  type Tool,
} from './tool.js';
import { connectWorker, type WorkerConnection, type WorkerSource } from './worker-connection.js';

/** The definition of a tool whose `execute` runs inside a Web Worker. */
export interface WorkerToolConfig {
  /** The tool's name, as the model calls it and as the worker's `exposeTools` names its handler. */
  name: string;
  description: string;
  /**
   * A schema object (zod classic, or any Standard Schema that renders its JSON Schema) or a
   * plain JSON Schema object; input is validated on the page before it is posted.
   */
  input: ObjectSchema | JsonSchema;
  /**
   * The worker: a factory (`() => new Worker(new URL('./tools.worker.ts', import.meta.url), { type: 'module' })`),
   * a module worker URL, or a connection from `connectWorker`. Tools given the same factory
   * function, URL or connection share one worker.
   */
  worker: WorkerSource | WorkerConnection;
  /**
   * Fails the call with `TOOL_TIMEOUT` (and stops it in the worker) after this many
   * milliseconds, counted from the call: a worker still starting up uses part of it.
   */
  timeoutMs?: number;
  needsApproval?: NeedsApproval<Record<string, unknown>>;
}

/**
 * Defines a tool that runs in a Web Worker, for CPU-heavy or blocking work that must not
 * freeze the page. The worker module calls `exposeTools({ [name]: handler })` from
 * `open-agent/worker`; the returned `Tool` is used like any other.
 *
 * Failures reject with an `AgentError` (the loop reports them to the model): the handler's
 * own code, `TOOL_FAILED` for a plain throw, `TOOL_NOT_FOUND` when the worker has no such
 * handler, `TOOL_TIMEOUT` / `EXECUTION_CANCELLED` (the worker is terminated if the handler
 * does not stop within 100 ms), `WORKER_FAILED` when the worker fails to load or crashes.
 *
 * @example
 * // tools.worker.ts
 * import { exposeTools } from 'open-agent/worker';
 * exposeTools({ count_primes: ({ below }: { below: number }) => countPrimes(below) });
 *
 * // page
 * const spawn = () => new Worker(new URL('./tools.worker.ts', import.meta.url), { type: 'module' });
 * const countPrimes = workerTool({
 *   name: 'count_primes',
 *   description: 'Counts the primes below a number',
 *   input: z.object({ below: z.number().int().max(1e8) }),
 *   worker: spawn,
 *   timeoutMs: 10_000,
 * });
 */
export function workerTool(config: WorkerToolConfig): Tool {
  const { input, worker, ...rest } = config;
  const definition = isSchemaInput(input) ? tool({ ...rest, input }) : tool({ ...rest, input });
  const connection = sharedConnection(worker);
  // The loop validates before calling execute and passes validate's output; parsing that
  // output again would re-run zod transforms, so only inputs validate did not produce are checked.
  const validated = new WeakSet<object>();
  const validate: Tool['validate'] = (raw) => {
    const validation = definition.validate(raw);
    if (validation.success) validated.add(validation.value);
    return validation;
  };
  return {
    ...definition,
    validate,
    execute: (raw, { signal, toolUseId }) => {
      const send = (value: Record<string, unknown>) =>
        connection.call(config.name, value, { signal, toolUseId, timeoutMs: config.timeoutMs });
      // Sent at once (not after a microtask): an abort right after this call must reach the worker.
      if (validated.has(raw)) return send(raw);
      const check = () => {
        const validation = definition.validate(raw);
        if (!validation.success)
          return Promise.reject(new AgentError('INVALID_TOOL_INPUT', validation.error));
        return send(validation.value);
      };
      // A direct caller may not have prepared a JSON-Schema tool (the loop has).
      return definition.prepare ? definition.prepare().then(check) : check();
    },
  };
}

const byFactory = new WeakMap<() => Worker, WorkerConnection>();
const byUrl = new Map<string, WorkerConnection>();

function sharedConnection(worker: WorkerSource | WorkerConnection): WorkerConnection {
  if (typeof worker === 'function') {
    const existing = byFactory.get(worker);
    if (existing) return existing;
    const connection = connectWorker(worker);
    byFactory.set(worker, connection);
    return connection;
  }
  if (typeof worker === 'string' || worker instanceof URL) {
    const key = String(worker);
    const existing = byUrl.get(key);
    if (existing) return existing;
    const connection = connectWorker(worker);
    byUrl.set(key, connection);
    return connection;
  }
  return worker;
}
