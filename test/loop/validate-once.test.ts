import { z } from 'zod';
import { expect, it } from 'vitest';
import { tool, type Tool } from '../../src/tools/tool.js';
import { collect } from '../support/collect.js';
import { scriptedClient } from './fixtures.js';

// Issue 31: a call's input was checked twice — once as its tool_use event was decided (the
// repairs), again as the round opened. Each check runs the tool's schema: now a call the schema
// accepts is checked once (a repaired or invalid one, the rare case, is checked again).

/** `tool` with its `validate` calls recorded in `seen`. */
function counted(definition: Tool, seen: unknown[]): Tool {
  return {
    ...definition,
    validate: (input) => {
      seen.push(input);
      return definition.validate(input);
    },
  };
}

const ran: unknown[] = [];
const shout = tool({
  name: 'shout',
  description: 'Says a word louder',
  input: z.object({ word: z.string().transform((word) => word.toUpperCase()), times: z.number() }),
  execute: (input) => {
    ran.push(input);
    return `${input.word} x${input.times}`;
  },
});

it('checks each valid call once, and runs it with what the check produced', async () => {
  const seen: unknown[] = [];
  ran.length = 0;
  const { client } = scriptedClient(
    [
      {
        toolCalls: [
          { name: 'shout', input: { word: 'hi', times: 2 }, id: 'a' },
          { name: 'shout', input: { word: 'yo', times: 1 }, id: 'b' },
        ],
      },
      { text: 'Done.' },
    ],
    { tools: [counted(shout, seen)], autoExecuteTools: true },
  );

  const events = await collect(client.run('Shout'));

  expect(seen).toEqual([
    { word: 'hi', times: 2 },
    { word: 'yo', times: 1 },
  ]);
  expect(ran).toEqual([
    { word: 'HI', times: 2 },
    { word: 'YO', times: 1 },
  ]);
  expect(events.flatMap((event) => (event.type === 'tool_result' ? [event.content] : []))).toEqual([
    'HI x2',
    'YO x1',
  ]);
});

it('reports an invalid call as before, naming the path', async () => {
  const seen: unknown[] = [];
  const { client } = scriptedClient(
    [{ toolCalls: [{ name: 'shout', input: { word: 7, times: 1 }, id: 'a' }] }, { text: 'ok' }],
    { tools: [counted(shout, seen)], autoExecuteTools: true },
  );

  const events = await collect(client.run('Shout'));

  const error = events.find((event) => event.type === 'tool_use_error');
  expect(error?.code).toBe('INVALID_TOOL_INPUT');
  expect(error?.error).toMatch(/^Tool "shout" received invalid input: word/);
  expect(seen[0]).toEqual({ word: 7, times: 1 });
});
