import { z } from 'zod';
import { Client } from '../../src/loop/client.js';
import type { AgentOptions } from '../../src/loop/agent-options.js';
import { scriptedBackend, type ScriptedResponse } from '../../src/backend/scripted-backend.js';
import { tool } from '../../src/tools/tool.js';

export const add = tool({
  name: 'add',
  description: 'Adds two numbers',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

export const failing = tool({
  name: 'explode',
  description: 'Always throws',
  input: z.object({}),
  execute: () => {
    throw new Error('kaboom');
  },
});

/** An external tool: no execute, the caller answers. */
export const askUser = tool({
  name: 'ask_user',
  description: 'Asks the user a question',
  input: z.object({ question: z.string() }),
});

/** A client on a scripted backend; returns both. */
export function scriptedClient(
  turns: readonly ScriptedResponse[],
  options: Partial<AgentOptions> = {},
) {
  const backend = scriptedBackend(turns);
  const client = new Client({ model: 'test-model', backend, tools: [add], ...options });
  return { client, backend };
}
