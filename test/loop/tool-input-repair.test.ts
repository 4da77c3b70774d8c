import { z } from 'zod';
import { describe, expect, it, vi } from 'vitest';
import { tool } from '../../src/tools/tool.js';
import { collect } from '../support/collect.js';
import { assertHistoryConsistent } from '../support/history-invariant.js';
import { scriptedClient } from './fixtures.js';

const schedule = tool({
  name: 'schedule',
  description: 'Schedules a reminder',
  input: z.object({
    minutes: z.number(),
    loud: z.boolean(),
    tags: z.array(z.string()),
    note: z.string().optional(),
  }),
  execute: (input) => input,
});

describe('argument repair before validation', () => {
  it('runs a call whose input has one obvious repair; tool_use and history carry the input used', async () => {
    const { client, backend } = scriptedClient(
      [
        {
          toolCalls: [
            {
              name: 'schedule',
              input: { minutes: '15', loud: 'true', tags: 'work', note: null },
              id: 's1',
            },
          ],
        },
        { text: 'Done.' },
      ],
      { tools: [schedule], autoExecuteTools: true },
    );

    const events = await collect(client.run('Remind me in 15 minutes'));

    const used = { minutes: 15, loud: true, tags: ['work'] };
    expect(events.find((event) => event.type === 'tool_use')).toEqual({
      type: 'tool_use',
      id: 's1',
      name: 'schedule',
      input: used,
    });
    expect(events.find((event) => event.type === 'tool_result')).toMatchObject({
      content: used,
      isError: false,
    });
    expect(events.some((event) => event.type === 'tool_use_error')).toBe(false);
    expect(backend.requests[1]?.messages[1]).toMatchObject({
      role: 'assistant',
      tool_calls: [{ function: { arguments: JSON.stringify(used) } }],
    });
    assertHistoryConsistent(client.history);
  });

  it('guesses nothing beyond the obvious: the call fails validation as before', async () => {
    const { client } = scriptedClient(
      [
        {
          toolCalls: [
            { name: 'schedule', input: { minutes: 'soon', loud: true, tags: [] }, id: 's1' },
          ],
        },
        { text: 'Sorry.' },
      ],
      { tools: [schedule], autoExecuteTools: true },
    );

    const events = await collect(client.run('Remind me'));

    expect(events.find((event) => event.type === 'tool_use')).toMatchObject({
      input: { minutes: 'soon' },
    });
    expect(events.find((event) => event.type === 'tool_use_error')).toMatchObject({
      code: 'INVALID_TOOL_INPUT',
    });
  });

  it('tries the app’s repairToolInput first (sync or async), with the validation error', async () => {
    const repairToolInput = vi.fn((call: { input: Record<string, unknown> }) =>
      Promise.resolve(
        call.input.minutes === 'soon' ? { ...call.input, minutes: 5, tags: ['x'] } : undefined,
      ),
    );
    const { client } = scriptedClient(
      [
        {
          toolCalls: [
            { name: 'schedule', input: { minutes: 'soon', loud: 'false', tags: 'a' }, id: 's1' },
          ],
        },
        { text: 'OK.' },
      ],
      { tools: [schedule], autoExecuteTools: true, repairToolInput },
    );

    const events = await collect(client.run('Remind me'));

    expect(repairToolInput).toHaveBeenCalledWith(
      { toolUseId: 's1', name: 'schedule', input: { minutes: 'soon', loud: 'false', tags: 'a' } },
      expect.objectContaining({ code: 'INVALID_TOOL_INPUT' }),
    );
    // The app's input still had loud: "false"; the built-in repairs finished it.
    expect(events.find((event) => event.type === 'tool_use')).toMatchObject({
      input: { minutes: 5, loud: false, tags: ['x'] },
    });
    expect(events.find((event) => event.type === 'tool_result')).toMatchObject({
      isError: false,
    });
  });

  it('a throwing repairToolInput goes to onError and the built-in repairs go on', async () => {
    const onError = vi.fn();
    const { client } = scriptedClient(
      [
        { toolCalls: [{ name: 'schedule', input: { minutes: '1', loud: true, tags: [] } }] },
        { text: 'OK.' },
      ],
      {
        tools: [schedule],
        autoExecuteTools: true,
        onError,
        repairToolInput: () => {
          throw new Error('nope');
        },
      },
    );

    const events = await collect(client.run('Remind me'));

    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'TOOL_FAILED' }));
    expect(events.find((event) => event.type === 'tool_use')).toMatchObject({
      input: { minutes: 1 },
    });
  });

  it("gives Qwen3-Coder's raw-text parameter values the types of the tool's schema", async () => {
    const { client } = scriptedClient(
      [
        {
          text: [
            '<tool_call>\n<function=schedule>\n<parameter=minutes>\n15\n</parameter>\n',
            '<parameter=loud>\nfalse\n</parameter>\n<parameter=tags>\n["a", "b"]\n</parameter>\n',
            '<parameter=note>\n42\n</parameter>\n</function>\n</tool_call>',
          ],
        },
        { text: 'Done.' },
      ],
      { tools: [schedule], autoExecuteTools: true },
    );

    const events = await collect(client.run('Remind me'));

    expect(events.find((event) => event.type === 'tool_use')).toMatchObject({
      name: 'schedule',
      input: { minutes: 15, loud: false, tags: ['a', 'b'], note: '42' },
    });
    expect(events.find((event) => event.type === 'tool_result')).toMatchObject({ isError: false });
  });

  it('in manual mode the pending call carries the repaired input', async () => {
    const { client } = scriptedClient(
      [{ toolCalls: [{ name: 'schedule', input: { minutes: '2', loud: true, tags: ['a'] } }] }],
      { tools: [schedule] },
    );

    await collect(client.run('Remind me'));

    expect(client.pending[0]?.input).toEqual({ minutes: 2, loud: true, tags: ['a'] });
  });
});

describe('calls written as text, in every dialect (loaded on the first call with tools)', () => {
  it('runs a Mistral [TOOL_CALLS] call and a pythonic answer', async () => {
    const { client } = scriptedClient(
      [
        { text: ['[TOOL_CALLS]schedule[ARGS]', '{"minutes": 5, "loud": true, "tags": ["x"]}'] },
        { text: ['[schedule(minutes=1, loud=False, tags=["y"])]'] },
        { text: 'Both set.' },
      ],
      { tools: [schedule], autoExecuteTools: true },
    );

    const events = await collect(client.run('Two reminders'));

    expect(events.filter((event) => event.type === 'tool_use').map((event) => event.input)).toEqual(
      [
        { minutes: 5, loud: true, tags: ['x'] },
        { minutes: 1, loud: false, tags: ['y'] },
      ],
    );
    expect(events.flatMap((event) => (event.type === 'text' ? [event.text] : [])).join('')).toBe(
      'Both set.',
    );
  });
});
