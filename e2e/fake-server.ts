import type { FakeTurn } from '../test/support/fake-openai-server.mjs';

const PORT = Number(process.env.E2E_FAKE_PORT ?? 8787);
const CONTROL = `http://127.0.0.1:${PORT}/__control`;

/** The fake server's base URL, as the demo page gets it. */
export const FAKE_BASE_URL = `http://127.0.0.1:${PORT}/v1`;

/** What the fake server recorded. */
export interface Recorded {
  requests: {
    model?: string;
    messages: { role: string; content: string | null; tool_call_id?: string }[];
  }[];
  errors: string[];
  queued: number;
}

/** Clears the fake server's queue and recordings. */
export async function resetServer(): Promise<void> {
  await post('reset', {});
}

/** Queues turns, one per chat-completions request. */
export async function enqueue(...turns: FakeTurn[]): Promise<void> {
  await post('enqueue', turns);
}

export async function recorded(): Promise<Recorded> {
  const response = await fetch(`${CONTROL}/requests`);
  // The fake server's own control API; its shape is declared in fake-openai-server.d.mts.
  return (await response.json()) as Recorded;
}

async function post(route: string, body: unknown): Promise<void> {
  const response = await fetch(`${CONTROL}/${route}`, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
  if (!response.ok) throw new Error(`fake server ${route}: HTTP ${response.status}`);
}
