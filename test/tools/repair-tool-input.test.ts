import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { repairToolInput } from '../../src/tools/repair-tool-input.js';
import { tool } from '../../src/tools/tool.js';

const schema = tool({
  name: 'plan',
  description: 'Plans',
  input: z.object({
    count: z.number(),
    whole: z.number().int(),
    dry: z.boolean(),
    note: z.string().optional(),
    maybe: z.string().nullable().optional(),
    tags: z.array(z.string()).optional(),
    point: z.object({ x: z.number(), y: z.number() }).optional(),
    steps: z.array(z.object({ n: z.number() })).optional(),
    label: z.string().optional(),
  }),
}).parameters;

describe('repairToolInput (pure, driven by the JSON Schema)', () => {
  it('turns numeric strings into numbers and "true"/"false" into booleans', () => {
    expect(repairToolInput({ count: '2.5', whole: ' 7 ', dry: 'false' }, schema)).toEqual({
      count: 2.5,
      whole: 7,
      dry: false,
    });
  });

  it('leaves out null for an optional field, keeps it where null is allowed', () => {
    expect(repairToolInput({ count: 1, note: null, maybe: null }, schema)).toEqual({
      count: 1,
      maybe: null,
    });
  });

  it('parses JSON-encoded objects and arrays, repairing inside them', () => {
    expect(repairToolInput({ point: '{"x": "1", "y": 2}', steps: '[{"n": "3"}]' }, schema)).toEqual(
      { point: { x: 1, y: 2 }, steps: [{ n: 3 }] },
    );
  });

  it('wraps a single value where an array is expected', () => {
    expect(repairToolInput({ tags: 'urgent', steps: { n: '1' } }, schema)).toEqual({
      tags: ['urgent'],
      steps: [{ n: 1 }],
    });
  });

  it('guesses nothing else', () => {
    const input = {
      count: 'five',
      whole: '2.5',
      dry: 'yes',
      label: 5,
      note: 'a',
      tags: 7,
      point: '{not json',
      extra: '1',
    };
    expect(repairToolInput(input, schema)).toBeUndefined();
    expect(repairToolInput({ count: 1, label: '3' }, schema)).toBeUndefined();
  });

  it('does not change its input', () => {
    const input = { count: '1', point: { x: '2', y: 3 } };
    const copy = structuredClone(input);
    repairToolInput(input, schema);
    expect(input).toEqual(copy);
  });

  it('reads type lists and schemas without types', () => {
    const plain = {
      type: 'object',
      properties: { n: { type: ['integer', 'null'] }, any: {}, ref: { $ref: '#/x' } },
      required: ['n'],
    };
    expect(repairToolInput({ n: '4', any: '5', ref: '6' }, plain)).toEqual({
      n: 4,
      any: '5',
      ref: '6',
    });
  });
});

describe('repairToolInput: Python literals Qwen3.5 and Seed-OSS write in XML calls (issue 28)', () => {
  // vLLM's qwen3_coder and seed_oss parsers read these by the schema; the models' templates
  // render arguments with Python's str(), so `True`, `False` and `None` come back.
  it('reads "True" / "False" as booleans where the schema wants one', () => {
    expect(repairToolInput({ dry: 'True' }, schema)).toEqual({ dry: true });
    expect(repairToolInput({ dry: 'False' }, schema)).toEqual({ dry: false });
  });

  it('reads "None" / "null" as null where no string fits: null if allowed, else an optional field is left out', () => {
    const nullable = tool({
      name: 'n',
      description: 'N',
      input: z.object({ at: z.number().nullable() }),
    }).parameters;
    expect(repairToolInput({ at: 'None' }, nullable)).toEqual({ at: null });
    expect(repairToolInput({ tags: 'None', point: 'null' }, schema)).toEqual({});
  });

  it('keeps "None" as text where a string fits', () => {
    expect(repairToolInput({ note: 'None', maybe: 'None', dry: true }, schema)).toBeUndefined();
  });
});
