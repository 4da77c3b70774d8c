import { describe, expect, it } from 'vitest';
import { scriptedBackend } from '../../src/backend/scripted-backend.js';
import { Client } from '../../src/loop/client.js';
import { tool } from '../../src/tools/tool.js';
import { sharedJsonSchemaCheck } from '../../src/types/json-schema-validator.js';
import type { JsonSchema } from '../../src/types/schema-check.js';
import { collect } from '../support/collect.js';

/** Not flat (a bound): checked by the JSON Schema validator. */
function atLeast(minimum: number): JsonSchema {
  return {
    type: 'object',
    properties: { n: { type: 'integer', minimum } },
    required: ['n'],
  };
}

/** A new Client per conversation, each with its tool written inline, as apps build them. */
function conversation(schema: JsonSchema): Client {
  return new Client({
    model: 'm',
    backend: scriptedBackend([
      { toolCalls: [{ name: 'pick', input: { n: 7 }, id: 'c1' }] },
      { text: 'Done.' },
    ]),
    autoExecuteTools: true,
    tools: [tool({ name: 'pick', description: 'Picks n', input: schema, execute: ({ n }) => n })],
  });
}

describe('JSON Schema checks shared across tools and Clients', () => {
  it('compiles a schema once per text: a copy written anew gets the same check', () => {
    const check = sharedJsonSchemaCheck(atLeast(5));
    expect(sharedJsonSchemaCheck(atLeast(5))).toBe(check);
    expect(sharedJsonSchemaCheck(atLeast(10))).not.toBe(check);
  });

  it('never lends one Client the check of another Client’s schema', async () => {
    const loose = await collect(conversation(atLeast(5)).run('Pick'));
    const strict = await collect(conversation(atLeast(10)).run('Pick'));
    const again = await collect(conversation(atLeast(5)).run('Pick'));
    expect(loose.find((event) => event.type === 'tool_result')).toMatchObject({ content: 7 });
    expect(strict.find((event) => event.type === 'tool_use_error')).toMatchObject({
      code: 'INVALID_TOOL_INPUT',
      error: 'Tool "pick" received invalid input: n: 7 is less than 10',
    });
    expect(again.find((event) => event.type === 'tool_result')).toMatchObject({ content: 7 });
  });

  it('checks a schema object changed after a compile by what it says now', async () => {
    const schema = atLeast(5);
    const first = tool({ name: 'pick', description: 'Picks n', input: schema });
    await first.prepare?.();
    expect(first.validate({ n: 7 }).success).toBe(true);
    schema.properties = { n: { type: 'integer', minimum: 10 } };
    const second = tool({ name: 'pick', description: 'Picks n', input: schema });
    await second.prepare?.();
    expect(second.validate({ n: 7 }).success).toBe(false);
    // The first tool keeps the check it was prepared with, as before.
    expect(first.validate({ n: 7 }).success).toBe(true);
  });
});
