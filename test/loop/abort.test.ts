import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from '../../src/tools/tool.js';
import { contentText } from '../../src/types/message.js';
import { collect } from '../support/collect.js';
import { assertHistoryConsistent } from '../support/history-invariant.js';
import { scriptedClient } from './fixtures.js';

describe('abort', () => {
  it('during streaming ends with done cancelled and keeps the partial text', async () => {
    const { client } = scriptedClient([{ text: ['Once ', 'upon '], hang: true }]);
    const controller = new AbortController();
    const seen: string[] = [];
    for await (const event of client.run('story', { signal: controller.signal })) {
      seen.push(event.type === 'text' ? event.text : event.type);
      if (event.type === 'text' && event.text === 'upon ') controller.abort();
    }
    expect(seen).toEqual(['Once ', 'upon ', 'done']);
    expect(client.history).toEqual([
      { role: 'user', content: 'story' },
      // Marked: a reloaded conversation still says the answer was stopped.
      { role: 'assistant', content: 'Once upon ', stopped: true },
    ]);
    // The next prompt works.
    expect(client.status).toBe('idle');
  });

  it('during a tool gives every started call an EXECUTION_CANCELLED result', async () => {
    const controller = new AbortController();
    let toolSignal: AbortSignal | undefined;
    const wait = tool({
      name: 'wait',
      description: 'waits for abort',
      input: z.object({}),
      execute: (_input, { signal }) => {
        toolSignal = signal;
        setTimeout(() => controller.abort(), 5);
        return new Promise(() => undefined);
      },
    });
    const { client, backend } = scriptedClient(
      [
        {
          toolCalls: [
            { name: 'wait', input: {} },
            { name: 'wait', input: {} },
          ],
        },
      ],
      {
        tools: [wait],
        autoExecuteTools: true,
      },
    );
    const events = await collect(client.run('go', { signal: controller.signal }));
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'cancelled' });
    expect(toolSignal?.aborted).toBe(true);
    const results = client.history.filter((message) => message.role === 'tool');
    expect(results).toHaveLength(2);
    expect(results.every((message) => contentText(message.content).includes('cancelled'))).toBe(
      true,
    );
    expect(backend.requests).toHaveLength(1);
    assertHistoryConsistent(client.history);
  });

  it('before the model call makes no request', async () => {
    const { client, backend } = scriptedClient([{ text: 'never' }]);
    const events = await collect(client.run('go', { signal: AbortSignal.abort() }));
    expect(events.at(-1)).toMatchObject({ status: 'cancelled', iterations: 0 });
    expect(backend.requests).toHaveLength(0);
  });
});
