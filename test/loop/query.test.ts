import { describe, expect, it } from 'vitest';
import { query } from '../../src/loop/query.js';
import { Client } from '../../src/loop/client.js';
import { collect, types } from '../support/collect.js';
import { fakeFetch, sseBody, sseResponse } from '../support/fake-fetch.js';
import { assertHistoryConsistent } from '../support/history-invariant.js';
import { add } from './fixtures.js';

const sse = (...chunks: unknown[]) => sseBody(chunks);
const delta = (value: Record<string, unknown>, finish: string | null = null) => ({
  id: 'x',
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta: value, finish_reason: finish }],
});

describe('query()', () => {
  it('streams one model call through the fetch transport and reports tool calls without running them', async () => {
    const body = sse(
      delta({ role: 'assistant', content: '' }),
      delta({ content: 'Let me add. ' }),
      // Ollama /v1 before 0.5 sent every parallel call as index 0, and `stop` as the finish.
      delta({
        tool_calls: [
          { index: 0, id: 'call_a', function: { name: 'add', arguments: '{"a":1,"b":2}' } },
        ],
      }),
      delta({
        tool_calls: [
          { index: 0, id: 'call_b', function: { name: 'add', arguments: '{"a":3,"b":4}' } },
        ],
      }),
      delta({}, 'stop'),
    );
    const fake = fakeFetch([sseResponse(body, { splitEvery: 7 })]);
    const events = await collect(
      query('Add things', {
        model: 'qwen3',
        baseURL: 'http://localhost:11434/v1',
        fetch: fake.fetch,
        contextWindow: 32_768, // a known window: the script holds no probe of the server
        tools: [add],
        systemPrompt: 'Be brief.',
      }),
    );
    expect(types(events)).toEqual([
      'text',
      'tool_use',
      'tool_use',
      'step_end',
      'awaiting_tool_results',
      'done',
    ]);
    expect(
      events
        .filter((event) => event.type === 'tool_use')
        .map((event) => event.type === 'tool_use' && event.id),
    ).toEqual(['call_a', 'call_b']);
    expect(events[3]).toMatchObject({
      type: 'step_end',
      finishReason: 'tool_calls',
      usage: { estimated: true },
    });
    expect(fake.requests[0]?.url).toBe('http://localhost:11434/v1/chat/completions');
    expect(fake.requests[0]?.body).toMatchObject({
      model: 'qwen3',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Add things' },
      ],
      tools: [{ type: 'function', function: { name: 'add' } }],
    });
    // The server's own sampling settings apply: nothing the app did not set is sent.
    expect(fake.requests[0]?.body).not.toHaveProperty('temperature');
    expect(fake.requests[0]?.body).not.toHaveProperty('max_tokens');
  });

  it("throws HTTP_ERROR with the server's message", async () => {
    const fake = fakeFetch([
      new Response(JSON.stringify({ error: { message: 'model "nope" not found' } }), {
        status: 404,
      }),
    ]);
    await expect(
      collect(
        query('hi', {
          model: 'nope',
          baseURL: 'http://localhost:1234/v1',
          fetch: fake.fetch,
          contextWindow: 32_768,
        }),
      ),
    ).rejects.toMatchObject({
      code: 'HTTP_ERROR',
      message: expect.stringContaining('model "nope" not found') as unknown,
    });
  });

  it('needs a baseURL or a backend', () => {
    expect(() => new Client({ model: 'm' })).toThrow(/baseURL/);
  });
});

describe('Client over the fetch transport', () => {
  it('runs a tool loop against SSE bytes split at awkward places', async () => {
    const first = sse(
      delta({ role: 'assistant' }),
      delta({
        tool_calls: [
          { index: 0, id: 'abc123XYZ', type: 'function', function: { name: 'add', arguments: '' } },
        ],
      }),
      delta({ tool_calls: [{ index: 0, function: { arguments: '{"a": 20,' } }] }),
      delta({ tool_calls: [{ index: 0, function: { arguments: ' "b": 22}' } }] }),
      delta({}, 'tool_calls'),
      {
        id: 'x',
        object: 'chat.completion.chunk',
        choices: [],
        usage: { prompt_tokens: 50, completion_tokens: 10, total_tokens: 60 },
      },
    );
    const second = sse(delta({ content: 'It is 42 — done ✓' }), delta({}, 'stop'));
    const fake = fakeFetch([
      sseResponse(first, { splitEvery: 5 }),
      sseResponse(second, { splitEvery: 3 }),
    ]);
    const client = new Client({
      model: 'm',
      baseURL: 'http://127.0.0.1:8080/v1',
      fetch: fake.fetch,
      contextWindow: 32_768,
      tools: [add],
      autoExecuteTools: true,
    });
    const events = await collect(client.run('20+22?'));
    expect(events.find((event) => event.type === 'tool_result')).toMatchObject({ content: 42 });
    expect(client.history.at(-1)).toMatchObject({
      role: 'assistant',
      content: 'It is 42 — done ✓',
    });
    expect(client.history.at(-1)).not.toHaveProperty('tool_calls');
    expect(fake.requests).toHaveLength(2);
    assertHistoryConsistent(client.history);
  });
});
