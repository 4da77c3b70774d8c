import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as zm from 'zod/mini';
import { executeTool } from '../../src/tools/execute-tool.js';
import { tool } from '../../src/tools/tool.js';
import { createToolRegistry } from '../../src/tools/tool-registry.js';
import { AgentError } from '../../src/errors/agent-error.js';

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

  it('accepts a plain JSON Schema and validates with it', () => {
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
    expect(echo.validate({ text: 'hi' }).success).toBe(true);
    const wrongType = echo.validate({ text: 3 });
    expect(!wrongType.success && wrongType.error).toBe(
      'Tool "echo" received invalid input: text: Instance type "number" is invalid. Expected "string"',
    );
    const missing = echo.validate({});
    expect(!missing.success && missing.error).toBe('Tool "echo" received invalid input: text: required');
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
