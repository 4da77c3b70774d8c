import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flatJsonSchemaCheck } from '../../src/types/flat-json-schema-check.js';
import { compiledJsonSchemaCheck } from '../../src/types/json-schema-validator.js';

// flatJsonSchemaCheck checks the schema most tools have without the JSON Schema validator.
// Whatever the value, its verdict and issues must be the validator's, word for word; and it
// must step aside (undefined) for every schema it does not cover.
const KEYS = ['a', 'b', 'c', '0', '12', 'a/b', 'x~1', '100%', '__proto__', 'constructor'];
const simpleType = fc.constantFrom('string', 'number', 'integer', 'boolean', 'null');
const plainValue = fc.oneof(
  fc.string({ maxLength: 2 }),
  fc.integer({ min: -2, max: 2 }),
  fc.boolean(),
  fc.constant(null),
  fc.constant(0.5),
);
const flatProperty = fc.oneof(
  fc.record({ type: simpleType }),
  fc.record({ type: simpleType, description: fc.string({ maxLength: 3 }) }),
  fc.record({ enum: fc.array(plainValue, { maxLength: 3 }) }),
  fc.record({ type: simpleType, enum: fc.array(plainValue, { maxLength: 3 }), title: fc.string() }),
);
// Each of these makes a schema the flat check must leave to the validator.
const otherProperty = fc.oneof(
  fc.record({ type: fc.constant('number'), minimum: fc.integer() }),
  fc.record({ type: fc.constantFrom(['string', 'null'], 'array', 'object') }),
  fc.record({ enum: fc.tuple(fc.jsonValue().filter((v) => typeof v === 'object' && v !== null)) }),
  fc.record({ type: fc.constant('string'), format: fc.constant('date') }),
  fc.constant({}),
);
const $schema = fc.constantFrom(
  'https://json-schema.org/draft/2020-12/schema',
  'http://json-schema.org/draft-07/schema#',
  'http://json-schema.org/draft-04/schema#',
);
const flatSchema = fc.record(
  {
    type: fc.constant('object'),
    properties: fc.dictionary(fc.constantFrom(...KEYS), flatProperty, { maxKeys: 4 }),
    required: fc.uniqueArray(fc.constantFrom(...KEYS), { maxLength: 3 }),
    additionalProperties: fc.boolean(),
    description: fc.string({ maxLength: 3 }),
    $schema,
  },
  { requiredKeys: ['type'] },
);
const otherSchema = fc.oneof(
  flatSchema.chain((schema) =>
    fc.tuple(fc.constantFrom(...KEYS), otherProperty).map(([key, property]) => ({
      ...schema,
      properties: { ...(schema.properties ?? {}), [key]: property },
    })),
  ),
  flatSchema.map((schema) => ({ ...schema, additionalProperties: { type: 'string' } })),
  flatSchema.map((schema) => ({ ...schema, minProperties: 1 })),
  flatSchema.map((schema) => ({ ...schema, type: 'array' })),
  flatSchema.map((schema) => ({ ...schema, required: ['a', 1] })),
);

const odd = fc.constantFrom(
  Number.NaN,
  Number.POSITIVE_INFINITY,
  -0,
  2 ** 53,
  -1.25,
  '1',
  '',
  undefined,
  () => 1,
  10n,
);
const scalar = fc.oneof(plainValue, plainValue, fc.double(), odd);
const value = fc.oneof(
  fc.dictionary(fc.constantFrom(...KEYS), fc.oneof(scalar, fc.jsonValue()), { maxKeys: 4 }),
  fc.jsonValue().map((json) => JSON.parse(JSON.stringify(json)) as unknown),
  fc.array(scalar, { maxLength: 2 }),
  scalar,
);

/** Values shaped like `schema`'s objects: its properties (some left out), maybe one more key. */
function valuesFor(schema: { properties?: Record<string, unknown> }): fc.Arbitrary<unknown[]> {
  const keys = Object.keys(schema.properties ?? {});
  const shaped = fc
    .tuple(
      fc.subarray(keys),
      fc.array(scalar, { minLength: keys.length, maxLength: keys.length }),
      fc.option(fc.tuple(fc.constantFrom(...KEYS), scalar), { nil: undefined }),
      fc.constantFrom({}, { c: 1 }, null),
    )
    .map(([kept, scalars, extra, prototype]) => {
      // Some objects inherit an enumerable key, or have none of Object's prototype.
      const object = Object.create(prototype) as Record<string, unknown>;
      kept.forEach((key, index) =>
        Object.defineProperty(object, key, {
          value: scalars[index],
          enumerable: true,
          writable: true,
        }),
      );
      if (extra) Object.defineProperty(object, extra[0], { value: extra[1], enumerable: true });
      return object;
    });
  return fc.array(fc.oneof(shaped, shaped, value), { minLength: 1, maxLength: 6 });
}

describe('flatJsonSchemaCheck', () => {
  it('says what the validator says, issue for issue, for every flat schema', () => {
    fc.assert(
      fc.property(
        flatSchema.chain((schema) => fc.tuple(fc.constant(schema), valuesFor(schema))),
        ([schema, inputs]) => {
          const flat = flatJsonSchemaCheck(schema);
          expect(flat).toBeDefined();
          const validator = compiledJsonSchemaCheck(schema);
          for (const input of inputs) expect(flat?.(input)).toEqual(validator(input));
        },
      ),
      { numRuns: 3000 },
    );
    // 3,000 schemas each compiled by the validator: about 3 s alone, several times that on a
    // loaded 2-core machine, where the default 5 s made this test fail with no fault found.
  }, 60_000);

  it('leaves every other schema to the validator', () => {
    fc.assert(
      fc.property(otherSchema, (schema) => {
        expect(flatJsonSchemaCheck(schema)).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  it('accepts a tool input of a flat schema, and names every problem of a wrong one', () => {
    const check = flatJsonSchemaCheck({
      type: 'object',
      properties: {
        a: { type: 'number' },
        b: { type: 'integer', description: 'whole' },
        unit: { type: 'string', enum: ['C', 'F'] },
      },
      required: ['a', 'b'],
      additionalProperties: false,
    });
    const input = { a: 1.5, b: 2, unit: 'C' };
    expect(check?.(input)).toEqual({ success: true, data: input });
    expect(check?.({ a: 'x', c: 1, unit: 'K' })).toEqual({
      success: false,
      issues: [
        { path: ['b'], message: 'required' },
        { path: ['a'], message: 'Instance type "string" is invalid. Expected "number"' },
        { path: ['unit'], message: 'Instance does not match any of ["C","F"]' },
        // The validator names the property in the message, at the object's path.
        { path: [], message: 'Property "c" does not match additional properties schema' },
      ],
    });
  });
});
