import { z } from 'zod';
import {
  scriptedBackend,
  type ScriptedResponse,
  type ScriptedTurn,
} from '../../src/backend/scripted-backend.js';
import { defineAgent, type Validator } from '../../src/loop/define-agent.js';
import { tool, type Tool } from '../../src/tools/tool.js';
import type { ChatRequest } from '../../src/types/chat-request.js';
import type { Message } from '../../src/types/message.js';

export const contactSchema = z.object({
  name: z.string(),
  email: z.email(),
  company: z.string().optional(),
});
export type Contact = z.output<typeof contactSchema>;

export const ada = { name: 'Ada Lovelace', email: 'ada@example.org' };

/** The order helpers ran in, for assertions. */
export function lookupTool(calls: string[] = []): Tool {
  return tool({
    name: 'lookup_company',
    description: 'Finds the company of an email domain',
    input: z.object({ domain: z.string() }),
    execute: ({ domain }) => {
      calls.push(domain);
      return domain === 'example.org' ? 'Analytical Engines Ltd' : 'unknown';
    },
  });
}

export const exploding = tool({
  name: 'explode',
  description: 'Always throws',
  input: z.object({}),
  execute: () => {
    throw new Error('kaboom');
  },
});

/** A scripted response calling the output tool. */
export const save = (input: Record<string, unknown>, id?: string): ScriptedTurn => ({
  toolCalls: [{ name: 'save_contact', input, ...(id === undefined ? {} : { id }) }],
});

/** A scripted response calling the lookup helper. */
export const lookup = (domain: string): ScriptedTurn => ({
  toolCalls: [{ name: 'lookup_company', input: { domain } }],
});

export const submit: ScriptedTurn = { toolCalls: [{ name: 'submit', input: {} }] };

interface ContactAgentOptions {
  helpers?: readonly Tool[];
  reflectionHandler?: (contact: Contact) => string | Promise<string>;
  validators?: readonly Validator<Contact>[];
  maxAttempts?: number;
  maxIterationsPerAttempt?: number;
  respond?: (request: ChatRequest, callIndex: number) => ScriptedTurn;
}

/** A contact-extraction agent on a scripted backend; returns both. */
export function contactAgent(
  turns: readonly ScriptedResponse[],
  options: ContactAgentOptions = {},
) {
  const backend = scriptedBackend(turns, options.respond ? { respond: options.respond } : {});
  const base = {
    name: 'save_contact',
    description: 'Saves the extracted contact',
    schema: contactSchema,
  };
  const agent = defineAgent({
    name: 'extract-contact',
    model: 'test-model',
    backend,
    systemPrompt: 'Extract the contact and call save_contact.',
    buildPrompt: (text: string) => `Extract the contact from: ${text}`,
    tools: {
      helpers: options.helpers ?? [lookupTool()],
      output: options.reflectionHandler
        ? { ...base, reflectionHandler: options.reflectionHandler }
        : base,
    },
    validation: {
      ...(options.validators ? { validators: options.validators } : {}),
      ...(options.maxAttempts === undefined ? {} : { maxAttempts: options.maxAttempts }),
      ...(options.maxIterationsPerAttempt === undefined
        ? {}
        : { maxIterationsPerAttempt: options.maxIterationsPerAttempt }),
    },
  });
  return { agent, backend };
}

/** The last message of the `index`-th request (what the model was just told). */
export function lastMessageOf(
  requests: readonly ChatRequest[],
  index: number,
): Message | undefined {
  return requests[index]?.messages.at(-1);
}

/** The history as `role` or `role:tool1+tool2` (assistant tool calls) / `tool:name`. */
export function shape(messages: readonly Message[]): string[] {
  return messages.map((message) => {
    if (message.role === 'assistant' && message.tool_calls) {
      return `assistant:${message.tool_calls.map((call) => call.function.name).join('+')}`;
    }
    if (message.role === 'tool') return `tool:${message.name ?? '?'}`;
    return message.role;
  });
}
