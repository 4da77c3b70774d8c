/**
 * The part of a worker's global scope the tool runtime uses. Typed here rather than with
 * `lib: ["WebWorker"]`, which conflicts with the DOM lib the rest of the project needs
 * (TOOLCHAIN pitfall 8). A `MessagePort` fits too, which is how tests drive it.
 */
export interface WorkerScope {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<unknown>) => void): void;
}

/** The global scope of the worker this code runs in. */
export function currentWorkerScope(): WorkerScope {
  // In a dedicated worker `self` is the DedicatedWorkerGlobalScope; the DOM lib types it as
  // Window, whose `postMessage(message, options?)` overload has the same shape.
  return self;
}
