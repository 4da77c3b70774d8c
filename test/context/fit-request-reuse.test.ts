import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitRequest } from '../../src/context/context-manager.js';
import { scriptedBackend } from '../../src/backend/scripted-backend.js';
import type { ChatRequest } from '../../src/types/chat-request.js';
import type { Message } from '../../src/types/message.js';

// One client fits many requests in a row and keeps what it counted of the last one. Whatever
// the conversation does between calls — grow, rewind, have a message replaced, drop the
// system prompt — each fit must equal the fit a fresh client makes of the same request.
type Step =
  | { kind: 'append'; text: string; role: 'user' | 'assistant' | 'tool' }
  | { kind: 'rewind'; keep: number }
  | { kind: 'replace'; index: number; text: string }
  | { kind: 'system'; on: boolean };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('append' as const),
    text: fc.string({ maxLength: 400 }),
    role: fc.constantFrom('user' as const, 'assistant' as const, 'tool' as const),
  }),
  fc.record({ kind: fc.constant('rewind' as const), keep: fc.nat({ max: 30 }) }),
  fc.record({
    kind: fc.constant('replace' as const),
    index: fc.nat({ max: 30 }),
    text: fc.string({ maxLength: 400 }),
  }),
  fc.record({ kind: fc.constant('system' as const), on: fc.boolean() }),
);

function message(role: 'user' | 'assistant' | 'tool', text: string): Message {
  return role === 'tool' ? { role, tool_call_id: 'call', content: text } : { role, content: text };
}

/** What a fit sent (or the error), for comparing two fits. */
async function outcome(
  options: { model: string; contextWindow: number; backend: ReturnType<typeof scriptedBackend> },
  request: ChatRequest,
): Promise<unknown> {
  try {
    const fitted = await fitRequest(options, options.backend, request);
    return { promptTokens: fitted.promptTokens, sent: fitted.request.messages };
  } catch (error) {
    return { error: String(error) };
  }
}

describe('fitRequest across calls of one client', () => {
  it('fits every request as a fresh client would', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 512, max: 8192 }),
        async (steps, contextWindow) => {
          const backend = scriptedBackend([]);
          const options = { model: 'm', contextWindow, backend };
          const messages: Message[] = [message('user', 'Hi')];
          let system = true;
          for (const change of steps) {
            if (change.kind === 'append') messages.push(message(change.role, change.text));
            else if (change.kind === 'rewind')
              messages.length = Math.max(1, Math.min(messages.length, change.keep));
            else if (change.kind === 'replace' && change.index < messages.length) {
              const old = messages[change.index] as Message;
              messages[change.index] = message(
                old.role === 'system' ? 'user' : old.role,
                change.text,
              );
            } else if (change.kind === 'system') system = change.on;
            const request: ChatRequest = {
              model: 'm',
              // Without a system prompt, the same array every call, changed in place between them.
              messages: system ? [{ role: 'system', content: 'Be brief.' }, ...messages] : messages,
              stream: true,
              max_tokens: 256,
            };
            const fresh = scriptedBackend([]);
            const expected = await outcome({ ...options, backend: fresh }, request);
            expect(await outcome(options, request)).toEqual(expected);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
