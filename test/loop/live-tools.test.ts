import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client, query, scriptedBackend, tool, type Tool } from '../../src/index.js';
import { collect } from '../support/collect.js';

const names = (request: { tools?: { function: { name: string } }[] } | undefined) =>
  request?.tools?.map((definition) => definition.function.name);

describe('AgentOptions.tools as a function', () => {
  it('is read again before every model call: the call after a change offers the new tool', async () => {
    const tools: Tool[] = [];
    const late = tool({
      name: 'late',
      description: 'Appears later',
      input: z.object({}),
      execute: () => 'late ran',
    });
    tools.push(
      tool({
        name: 'enable',
        description: 'Makes the tool "late" available',
        input: z.object({}),
        execute: () => {
          tools.push(late);
          return 'enabled';
        },
      }),
    );
    const backend = scriptedBackend([
      { toolCalls: [{ name: 'enable', input: {} }] },
      { toolCalls: [{ name: 'late', input: {} }] },
      { text: 'done' },
    ]);
    const client = new Client({
      model: 'scripted',
      backend,
      tools: () => tools,
      autoExecuteTools: true,
    });
    const events = await collect(client.run('go'));
    expect(backend.requests.map(names)).toEqual([
      ['enable'],
      ['enable', 'late'],
      ['enable', 'late'],
    ]);
    expect(events.filter((event) => event.type === 'tool_result')).toMatchObject([
      { name: 'enable', content: 'enabled' },
      { name: 'late', content: 'late ran', isError: false },
    ]);
  });

  it('keeps the definitions of an unchanged set (a getter that builds a new array each time)', async () => {
    const add = tool({ name: 'add', description: 'Adds', input: z.object({}), execute: () => 1 });
    const backend = scriptedBackend([{ toolCalls: [{ name: 'add', input: {} }] }, { text: 'ok' }]);
    const client = new Client({
      model: 'scripted',
      backend,
      tools: () => [add],
      autoExecuteTools: true,
    });
    await collect(client.run('go'));
    expect(backend.requests.map(names)).toEqual([['add'], ['add']]);
  });

  it('sends no tools while the function returns none, and query() reads it too', async () => {
    const backend = scriptedBackend([{ text: 'hi' }]);
    await collect(query('hello', { model: 'scripted', backend, tools: () => [] }));
    expect(backend.requests[0]?.tools).toBeUndefined();
  });

  it('a duplicate name from the function fails the run before the model call', async () => {
    const add = tool({ name: 'add', description: 'Adds', input: z.object({}), execute: () => 1 });
    let twice = false;
    const backend = scriptedBackend([{ toolCalls: [{ name: 'add', input: {} }] }, { text: 'ok' }]);
    const client = new Client({
      model: 'scripted',
      backend,
      tools: () => (twice ? [add, add] : [add]),
      autoExecuteTools: true,
      hooks: { PostToolUse: [() => void (twice = true)] },
    });
    await expect(collect(client.run('go'))).rejects.toThrow('Duplicate tool name: add');
    expect(backend.requests).toHaveLength(1);
  });
});
