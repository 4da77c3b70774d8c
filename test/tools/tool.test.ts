import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import * as zm from 'zod/mini';
import { executeTool } from '../../src/tools/execute-tool.js';
import { tool } from '../../src/tools/tool.js';
import { createToolRegistry } from '../../src/tools/tool-registry.js';
import { AgentError } from '../../src/errors/agent-error.js';
import { scriptedBackend } from '../../src/backend/scripted-backend.js';
import { Client } from '../../src/loop/client.js';
import { collect } from '../support/collect.js';

const weather = tool({
  name: 'get_weather',
  description: 'Current weather',
  input: z.object({ city: z.string(), unit: z.enum(['c', 'f']).default('c') }),
  execute: ({ city, unit }) => `${city}: 20°${unit}`,
});

describe('tool()', () => {
  it('derives the JSON Schema from zod, without $schema, with defaults optional for the model', () => {
    expect(weather.parameters).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string' },
        unit: { type: 'string', enum: ['c', 'f'], default: 'c' },
      },
      required: ['city'],
    });
  });

  it('validates input with the schema and names the tool and the path on failure', () => {
    expect(weather.validate({ city: 'Oslo' })).toEqual({
      success: true,
      value: { city: 'Oslo', unit: 'c' },
    });
    const failure = weather.validate({ city: 7 });
    expect(failure.success).toBe(false);
    expect(!failure.success && failure.error).toMatch(
      /^Tool "get_weather" received invalid input: city: .*string/,
    );
  });

  it('accepts a zod/mini schema with its JSON Schema beside it, and validates the call with zod', async () => {
    const input = zm.object({
      city: zm.string().check(zm.minLength(1)),
      days: zm._default(zm.number(), 3),
    });
    const forecast = tool({
      name: 'forecast',
      description: 'Weather forecast',
      input,
      parameters: zm.toJSONSchema(input, { io: 'input' }),
      execute: ({ city, days }) => `${city}: sun for ${days} days`,
    });
    expect(createToolRegistry([forecast]).definitions).toEqual([
      {
        type: 'function',
        function: {
          name: 'forecast',
          description: 'Weather forecast',
          parameters: {
            type: 'object',
            properties: {
              city: { type: 'string', minLength: 1 },
              days: { type: 'number', default: 3 },
            },
            required: ['city'],
          },
        },
      },
    ]);
    const failure = forecast.validate({ city: '', days: 'two' });
    expect(!failure.success && failure.error).toBe(
      'Tool "forecast" received invalid input: city: Too small: expected string to have >=1 characters; ' +
        'days: Invalid input: expected number, received string',
    );
    const success = forecast.validate({ city: 'Oslo' });
    expect(success).toEqual({ success: true, value: { city: 'Oslo', days: 3 } });
    if (!success.success) return;
    expect(await executeTool(forecast, success.value, { toolUseId: 'f' })).toEqual({
      ok: true,
      content: 'Oslo: sun for 3 days',
    });
  });

  it('asks for the JSON Schema of a schema that cannot render one (zod/mini), naming the fix', () => {
    expect(() =>
      tool({ name: 'forecast', description: '', input: zm.object({ city: zm.string() }) }),
    ).toThrow(/"forecast".*parameters: z\.toJSONSchema\(schema/);
  });

  it('accepts a plain JSON Schema and validates with it, once prepared', async () => {
    const echo = tool({
      name: 'echo',
      description: 'Echoes',
      input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      execute: (input) => input.text,
    });
    expect(echo.parameters).toEqual({
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
    });
    await echo.prepare?.();
    expect(echo.validate({ text: 'hi' }).success).toBe(true);
    const wrongType = echo.validate({ text: 3 });
    expect(!wrongType.success && wrongType.error).toBe(
      'Tool "echo" received invalid input: text: Instance type "number" is invalid. Expected "string"',
    );
    const missing = echo.validate({});
    expect(!missing.success && missing.error).toBe(
      'Tool "echo" received invalid input: text: required',
    );
  });

  it('loads the JSON Schema validator on demand: validate throws, naming the tool, until prepared', async () => {
    vi.resetModules(); // a fresh copy of tool.ts, whose validator no earlier test has loaded
    const fresh = await import('../../src/tools/tool.js');
    // A flat schema (simple-typed properties) needs no validator: nothing to prepare.
    const flat = fresh.tool({
      name: 'flat',
      description: 'Flat',
      input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    });
    expect(flat.prepare).toBeUndefined();
    expect(flat.validate({ text: 'hi' })).toEqual({ success: true, value: { text: 'hi' } });
    expect(flat.validate({})).toEqual({
      success: false,
      error: 'Tool "flat" received invalid input: text: required',
    });
    const echo = fresh.tool({
      name: 'echo',
      description: 'Echoes',
      input: {
        type: 'object',
        properties: { text: { type: 'string', minLength: 1 } },
        required: ['text'],
      },
    });
    expect(() => echo.validate({ text: 'hi' })).toThrow(/Tool "echo": await tool.prepare\(\)/);
    await echo.prepare?.();
    expect(echo.validate({ text: 'hi' })).toEqual({ success: true, value: { text: 'hi' } });
    expect(echo.validate({ text: '' }).success).toBe(false);
    // Loaded once for every tool: another JSON-Schema tool validates without its own prepare().
    const other = fresh.tool({
      name: 'other',
      description: '',
      input: { type: 'object', minProperties: 1 },
    });
    expect(other.validate([]).success).toBe(false);
  });

  it('is prepared by the loop before the model call, and by Client.ready for a restored pause', async () => {
    const config = {
      name: 'remove',
      description: 'Removes a file',
      // Not flat (a bound): checked by the validator, which loads on demand.
      input: {
        type: 'object',
        properties: { path: { type: 'string', minLength: 1 } },
        required: ['path'],
      },
      needsApproval: true,
      execute: (input: Record<string, unknown>) => `removed ${String(input.path)}`,
    };
    const backend = scriptedBackend([
      { toolCalls: [{ name: 'remove', input: { path: '/a' }, id: 'r1' }] },
      { text: 'Could not.' },
    ]);
    vi.resetModules(); // fresh modules: no JSON Schema validator loaded yet
    const first = await import('../../src/index.js');
    const options = { model: 'm', backend, tools: [first.tool(config)], autoExecuteTools: true };
    const paused = new first.Client(options);
    expect((await collect(paused.run('rm /a'))).at(-1)).toMatchObject({
      status: 'awaiting_tool_results',
    });

    vi.resetModules(); // another page load
    const second = await import('../../src/index.js');
    const restored = second.Client.restore(paused.snapshot(), {
      ...options,
      tools: [second.tool(config)],
    });
    expect(() => restored.approve('r1', { input: { path: 7 } })).toThrow(/await tool.prepare\(\)/);
    await restored.ready;
    restored.approve('r1', { input: { path: 7 } });
    const events = await collect(restored.receiveMessages());
    expect(events[0]).toMatchObject({
      type: 'tool_use_error',
      code: 'INVALID_TOOL_INPUT',
      error:
        'Tool "remove" received invalid input: path: Instance type "number" is invalid. Expected "string"',
    });
    expect(events.at(-1)).toMatchObject({ status: 'completed' });
  });

  it('fails the first model call, naming the tool, when its JSON Schema cannot be read', async () => {
    const broken = tool({
      name: 'broken',
      description: 'Two subschemas with one $id',
      input: {
        type: 'object',
        properties: {
          a: { $id: 'https://example.com/same' },
          b: { $id: 'https://example.com/same' },
        },
      },
      execute: () => 'never',
    });
    await expect(broken.prepare?.()).rejects.toThrow(
      'Tool "broken" has a JSON Schema that cannot be read',
    );
    const backend = scriptedBackend([{ text: 'never sent' }]);
    const client = new Client({ model: 'm', backend, tools: [broken] });
    await expect(collect(client.run('hi'))).rejects.toThrow(
      'Tool "broken" has a JSON Schema that cannot be read',
    );
    expect(backend.requests).toHaveLength(0);
  });

  it('rejects names servers refuse and inputs that are not objects', () => {
    expect(() => tool({ name: 'bad name', description: '', input: z.object({}) })).toThrow(
      /Invalid tool name/,
    );
    expect(() => tool({ name: 'list', description: '', input: { type: 'array' } })).toThrow(
      /must describe an object/,
    );
  });

  it('builds a registry that rejects duplicates', () => {
    expect(() => createToolRegistry([weather, weather])).toThrow(
      'Duplicate tool name: get_weather',
    );
    const registry = createToolRegistry([weather]);
    expect(registry.definitions).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Current weather',
          parameters: weather.parameters,
        },
      },
    ]);
    expect(createToolRegistry([]).definitions).toBeUndefined();
  });
});

describe('executeTool()', () => {
  it('returns the value, or TOOL_FAILED naming the tool, keeping codes of thrown AgentErrors', async () => {
    expect(await executeTool(weather, { city: 'Oslo', unit: 'c' }, { toolUseId: 'a' })).toEqual({
      ok: true,
      content: 'Oslo: 20°c',
    });
    const broken = tool({
      name: 'broken',
      description: '',
      input: z.object({}),
      execute: () => Promise.reject(new Error('disk full')),
    });
    const failed = await executeTool(broken, {}, { toolUseId: 'b' });
    expect(failed).toMatchObject({
      ok: false,
      error: { code: 'TOOL_FAILED', message: 'Tool "broken" failed: disk full' },
    });
    const coded = tool({
      name: 'coded',
      description: '',
      input: z.object({}),
      execute: () => {
        throw new AgentError('WORKER_FAILED', 'worker died');
      },
    });
    expect(await executeTool(coded, {}, { toolUseId: 'c' })).toMatchObject({
      ok: false,
      error: { code: 'WORKER_FAILED' },
    });
  });

  it('cancels on the run signal with EXECUTION_CANCELLED and aborts the tool signal', async () => {
    let seen: AbortSignal | undefined;
    const hang = tool({
      name: 'hang',
      description: '',
      input: z.object({}),
      execute: (_input, { signal }) => {
        seen = signal;
        return new Promise(() => undefined);
      },
    });
    const controller = new AbortController();
    const pending = executeTool(hang, {}, { toolUseId: 'd', signal: controller.signal });
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, error: { code: 'EXECUTION_CANCELLED' } });
    expect(seen?.aborted).toBe(true);
  });
});
