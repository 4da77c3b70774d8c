import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { chromeAIBackend } from '../../../src/backend/engines/chrome-ai-backend.js';
import { isAgentError } from '../../../src/errors/agent-error.js';
import { Client } from '../../../src/loop/client.js';
import { query } from '../../../src/loop/query.js';
import { tool } from '../../../src/tools/tool.js';
import type { AgentEvent } from '../../../src/types/events.js';
import { collect, types } from '../../support/collect.js';
import { fakeLanguageModel } from '../../support/fake-language-model.js';

const add = tool({
  name: 'add',
  description: 'Adds two integers.',
  input: z.object({ a: z.int(), b: z.int() }),
  execute: ({ a, b }) => a + b,
});

async function failure(events: AsyncIterable<AgentEvent>): Promise<unknown> {
  return collect(events).then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('chromeAIBackend', () => {
  it('says clearly when the browser has no Prompt API', async () => {
    const backend = chromeAIBackend();
    expect(await backend.availability()).toBe('absent');
    const error = await failure(query('Hi', { model: 'nano', backend }));
    expect(isAgentError(error, 'STREAM_ERROR')).toBe(true);
    expect((error as Error).message).toMatch(/not in this browser.*Chrome 148.*wllamaBackend/);
  });

  it('says clearly when the model is unavailable on this device', async () => {
    const fake = fakeLanguageModel({ availability: 'unavailable', replies: [] });
    const backend = chromeAIBackend({ languageModel: fake.api });
    expect(await backend.availability()).toBe('unavailable');
    const error = await failure(query('Hi', { model: 'nano', backend }));
    expect((error as Error).message).toMatch(/unavailable on this device/);
    expect(fake.prompts).toHaveLength(0);
  });

  it('reports the download as waiting events, then streams the answer', async () => {
    const fake = fakeLanguageModel({
      availability: 'downloadable',
      download: [0, 0.5, 1],
      replies: [['Hel', 'lo', '!']],
    });
    const backend = chromeAIBackend({ languageModel: fake.api });
    const client = new Client({ model: 'nano', backend, systemPrompt: 'Be brief.' });
    const events = await collect(client.run('Hi'));
    expect(types(events).filter((type) => type !== 'waiting')).toEqual([
      'text',
      'text',
      'text',
      'step_end',
      'done',
    ]);
    const progress = events.flatMap((event) => (event.type === 'waiting' ? [event.progress] : []));
    expect(progress.at(-1)).toBe(1);
    expect(progress).toEqual([...progress].sort());
    // The meter's figures are stored with the turn (contextUse), for a reload.
    expect(client.history.at(-1)).toMatchObject({ role: 'assistant', content: 'Hello!' });
    expect(fake.created.at(-1)?.initialPrompts).toEqual([{ role: 'system', content: 'Be brief.' }]);
    expect(fake.prompts[0]?.input).toEqual([{ role: 'user', content: 'Hi' }]);
    expect(backend.contextWindow?.('nano')).toBe(6144);
    expect(fake.destroyed).toBe(fake.created.length);
  });

  it('stops when the signal aborts, and the run ends cancelled with the partial text', async () => {
    const fake = fakeLanguageModel({ replies: [['one ', 'two ', 'three']] });
    const client = new Client({
      model: 'nano',
      backend: chromeAIBackend({ languageModel: fake.api }),
    });
    const controller = new AbortController();
    const events: AgentEvent[] = [];
    for await (const event of client.run('Count', { signal: controller.signal })) {
      events.push(event);
      if (event.type === 'text') controller.abort();
    }
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'cancelled' });
    expect(client.history.at(-1)).toEqual({ role: 'assistant', content: 'one ', stopped: true });
    expect(fake.prompts[0]?.options.signal).toBeInstanceOf(AbortSignal);
  });

  it('sends responseFormat as responseConstraint', async () => {
    const fake = fakeLanguageModel({ replies: [['{"city":', '"Oslo"}']] });
    const schema = z.object({ city: z.string() });
    const events = await collect(
      query('A city', {
        model: 'nano',
        backend: chromeAIBackend({ languageModel: fake.api }),
        responseFormat: { schema },
      }),
    );
    expect(events.at(-1)).toMatchObject({ type: 'done', output: { city: 'Oslo' } });
    expect(fake.prompts[0]?.options.responseConstraint).toMatchObject({
      type: 'object',
      required: ['city'],
    });
  });

  it('runs tools through a constrained answer: the loop, the tool and the follow-up are standard', async () => {
    const fake = fakeLanguageModel({
      replies: [
        ['{"tool_calls": [{"name": "add", ', '"arguments": {"a": 2, "b": 3}}]}'],
        ['{"answer": "It is ', '5."}'],
      ],
    });
    const client = new Client({
      model: 'nano',
      backend: chromeAIBackend({ languageModel: fake.api }),
      tools: [add],
      autoExecuteTools: true,
    });
    const events = await collect(client.run('Add 2 and 3'));
    expect(types(events)).toEqual([
      'tool_use',
      'step_end',
      'tool_result',
      'text',
      'text',
      'step_end',
      'done',
    ]);
    expect(events[0]).toMatchObject({ type: 'tool_use', name: 'add', input: { a: 2, b: 3 } });
    expect(events[2]).toMatchObject({ type: 'tool_result', content: 5 });
    expect(client.history.at(-1)).toMatchObject({ role: 'assistant', content: 'It is 5.' });
    const first = fake.prompts[0]?.options;
    expect(first?.omitResponseConstraintInput).toBe(true);
    expect(JSON.stringify(first?.responseConstraint)).toContain('"const":"add"');
    expect(fake.created[0]?.initialPrompts?.[0]?.content).toMatch(
      /^You can use these tools:\n- add: Adds two integers\./,
    );
    // The follow-up: the call as the model wrote it, the result as a user turn.
    expect(fake.created[1]?.initialPrompts?.slice(1)).toEqual([
      { role: 'user', content: 'Add 2 and 3' },
      { role: 'assistant', content: '{"tool_calls":[{"name":"add","arguments":{"a":2,"b":3}}]}' },
    ]);
    expect(fake.prompts[1]?.input).toEqual([{ role: 'user', content: 'Tool results:\nadd: 5' }]);
  });

  it('maps a prompt over the window (QuotaExceededError) to CONTEXT_OVERFLOW', async () => {
    const fake = fakeLanguageModel({
      replies: [new DOMException('The input is too large.', 'QuotaExceededError')],
    });
    const error = await failure(
      query('Hi', { model: 'nano', backend: chromeAIBackend({ languageModel: fake.api }) }),
    );
    expect(isAgentError(error, 'CONTEXT_OVERFLOW')).toBe(true);
  });
});
