import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitRequest } from '../../src/context/context-manager.js';
import { estimateMessageTokens } from '../../src/context/fit-messages.js';
import { scriptedBackend } from '../../src/backend/scripted-backend.js';
import { isAgentError } from '../../src/errors/agent-error.js';
import type { ChatRequest, ToolDefinition } from '../../src/types/chat-request.js';
import type { Message } from '../../src/types/message.js';

// Random conversations with tool exchanges, fitted to random windows: what is sent fits, keeps
// the system prompt, the tools and the current turn, orphans no call or result, and the stored
// messages are untouched.
const TOOLS: ToolDefinition[] = [
  {
    type: 'function',
    function: { name: 'lookup', description: 'Looks up', parameters: { type: 'object' } },
  },
];
const text = fc.string({ maxLength: 60 }).map((piece) => piece.repeat(1 + (piece.length % 7)));
const exchange = fc.array(fc.tuple(text, fc.integer({ min: 0, max: 4000 })), {
  minLength: 1,
  maxLength: 3,
});
const turn = fc.record({
  prompt: text,
  exchanges: fc.array(exchange, { maxLength: 3 }),
  answer: fc.option(text, { nil: undefined }),
});

let ids = 0;
interface Turn {
  prompt: string;
  exchanges: [string, number][][];
  answer: string | undefined;
}

function conversation(turns: readonly Turn[]): Message[] {
  const messages: Message[] = [];
  for (const { prompt, exchanges, answer } of turns) {
    messages.push({ role: 'user', content: prompt });
    for (const calls of exchanges) {
      const callIds = calls.map(() => `call_${ids++}`);
      messages.push({
        role: 'assistant',
        content: null,
        tool_calls: calls.map(([argument], index) => ({
          id: callIds[index] as string,
          type: 'function',
          function: { name: 'lookup', arguments: JSON.stringify({ q: argument }) },
        })),
      });
      calls.forEach(([, size], index) =>
        messages.push({
          role: 'tool',
          tool_call_id: callIds[index] as string,
          content: 'r'.repeat(size),
        }),
      );
    }
    if (answer !== undefined) messages.push({ role: 'assistant', content: answer });
  }
  return messages;
}

describe('fitRequest over random conversations', () => {
  it('sends what fits, whole exchanges only, and never changes what is stored', async () => {
    const seen = { whole: 0, trimmed: 0, overflow: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(turn, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 256, max: 16_384 }),
        fc.integer({ min: 16, max: 4096 }),
        async (turns, contextWindow, maxTokens) => {
          const stored = conversation(turns);
          const snapshot = structuredClone(stored);
          const system: Message = { role: 'system', content: 'Be brief.' };
          const request: ChatRequest = {
            model: 'm',
            messages: [system, ...stored],
            stream: true,
            max_tokens: maxTokens,
            tools: TOOLS,
          };
          const options = { model: 'm', contextWindow, backend: scriptedBackend([]) };
          let sent: ChatRequest;
          try {
            sent = (await fitRequest(options, options.backend, request)).request;
          } catch (error) {
            expect(isAgentError(error) && error.code).toBe('CONTEXT_OVERFLOW');
            expect(stored).toEqual(snapshot);
            seen.overflow += 1;
            return;
          }
          if (sent.messages.length === request.messages.length) seen.whole += 1;
          else seen.trimmed += 1;
          expect(stored).toEqual(snapshot);
          const messages = sent.messages;
          expect(messages[0]).toBe(system);
          expect(sent.tools).toBe(TOOLS);
          // Fits: prompt plus the answer's room.
          const prompt =
            messages.reduce((total, message) => total + estimateMessageTokens(message), 0) +
            Math.ceil(JSON.stringify(TOOLS).length / 4);
          expect(prompt + Math.min(maxTokens, sent.max_tokens ?? maxTokens)).toBeLessThanOrEqual(
            contextWindow,
          );
          // The current turn, from the last user message: all there, in order.
          let lastUser = stored.length - 1;
          while (stored[lastUser]?.role !== 'user') lastUser -= 1;
          const current = stored.slice(lastUser);
          const tail = messages.slice(-current.length);
          tail.forEach((message, index) => {
            const original = current[index] as Message;
            if (message.role === 'tool' && original.role === 'tool' && message !== original) {
              expect(message.tool_call_id).toBe(original.tool_call_id);
              expect(message.content).toContain('left out to fit the context window');
            } else expect(message).toBe(original);
          });
          // No orphans: every call has its result and every result its call.
          const calls = messages.flatMap((message) =>
            message.role === 'assistant' ? (message.tool_calls ?? []).map((call) => call.id) : [],
          );
          const results = messages.flatMap((message) =>
            message.role === 'tool' ? [message.tool_call_id] : [],
          );
          expect(new Set(results)).toEqual(new Set(calls));
          expect(results).toHaveLength(calls.length);
          // What is kept of the past is a suffix of whole turns, starting at a user message.
          expect(messages[1]?.role).toBe('user');
        },
      ),
      { numRuns: 300 },
    );
    // The runs covered each outcome.
    expect(seen.whole).toBeGreaterThan(20);
    expect(seen.trimmed).toBeGreaterThan(20);
    expect(seen.overflow).toBeGreaterThan(0);
  });
});
