import type { AgentEvent } from '../../src/types/events.js';

/** Drains an event stream into an array. */
export async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const all: AgentEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

/** The event types, in order (for compact sequence assertions). */
export function types(events: readonly AgentEvent[]): string[] {
  return events.map((event) => event.type);
}

/** A promise and its resolver (Promise.withResolvers is Node 22+). */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}
