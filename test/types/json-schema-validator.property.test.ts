import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileJsonSchema, jsonSchemaCheck } from '../../src/types/json-schema-validator.js';

// jsonSchemaCheck accepts the values of simple object schemas without the validator's walk.
// Whatever the schema and the value, its verdict must be the validator's.
const KEYS = ['a', 'b', 'c', '__proto__', 'constructor'];
const simpleType = fc.constantFrom('string', 'number', 'integer', 'boolean', 'null');
const propertySchema = fc.oneof(
  fc.record({ type: simpleType }),
  fc.record({ type: simpleType }),
  fc.record({ type: simpleType }),
  fc.record({ type: simpleType, description: fc.string() }),
  // Not a simple property: the shortcut must step aside for these.
  fc.record({ type: fc.constant('number'), minimum: fc.integer() }),
  fc.record({ type: fc.constantFrom(['string', 'null'], 'array', 'object') }),
  fc.record({ enum: fc.array(fc.jsonValue(), { maxLength: 3 }) }),
);
const schema = fc.record(
  {
    type: fc.constantFrom('object', 'object', 'object', 'array'),
    properties: fc.dictionary(fc.constantFrom(...KEYS), propertySchema, { maxKeys: 4 }),
    required: fc.uniqueArray(fc.constantFrom(...KEYS), { maxLength: 3 }),
    additionalProperties: fc.oneof(fc.boolean(), fc.record({ type: simpleType })),
    description: fc.string(),
    $schema: fc.constantFrom(
      'https://json-schema.org/draft/2020-12/schema',
      'http://json-schema.org/draft-07/schema#',
      'http://json-schema.org/draft-04/schema#',
    ),
  },
  { requiredKeys: ['type'] },
);
const scalar = fc.oneof(
  fc.string({ maxLength: 3 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53, 0.5, -1.25, '1', ''),
);
const value = fc.oneof(
  fc.dictionary(fc.constantFrom(...KEYS), fc.oneof(scalar, fc.jsonValue()), { maxKeys: 4 }),
  fc.jsonValue().map((json) => JSON.parse(JSON.stringify(json)) as unknown),
  fc.array(scalar, { maxLength: 2 }),
  scalar,
);

/** Values shaped like `schemaValue`'s objects: its properties (some left out), maybe one more key. */
function valuesFor(schemaValue: { properties?: Record<string, unknown> }): fc.Arbitrary<unknown[]> {
  const keys = Object.keys(schemaValue.properties ?? {});
  const shaped = fc
    .tuple(
      fc.subarray(keys),
      fc.array(scalar, { minLength: keys.length, maxLength: keys.length }),
      fc.option(fc.tuple(fc.constantFrom(...KEYS), scalar), { nil: undefined }),
    )
    .map(([kept, scalars, extra]) => {
      const object: Record<string, unknown> = {};
      kept.forEach((key, index) => (object[key] = scalars[index]));
      if (extra) object[extra[0]] = extra[1];
      return object;
    });
  return fc.array(fc.oneof(shaped, shaped, value), { minLength: 1, maxLength: 5 });
}

function validatorSays(schemaValue: Record<string, unknown>, input: unknown): boolean {
  try {
    return compileJsonSchema(schemaValue).validate(input).valid;
  } catch {
    return false;
  }
}

describe('jsonSchemaCheck', () => {
  it('says what the validator says, for simple object schemas and all others', () => {
    fc.assert(
      fc.property(
        schema.chain((schemaValue) => fc.tuple(fc.constant(schemaValue), valuesFor(schemaValue))),
        ([schemaValue, inputs]) => {
          const check = jsonSchemaCheck(schemaValue);
          for (const input of inputs)
            expect(check(input).success).toBe(validatorSays(schemaValue, input));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('accepts a tool input of a simple schema, and names every problem of a wrong one', () => {
    const check = jsonSchemaCheck({
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'integer', description: 'whole' } },
      required: ['a', 'b'],
      additionalProperties: false,
    });
    const input = { a: 1.5, b: 2 };
    expect(check(input)).toEqual({ success: true, data: input });
    expect(check({ a: 'x', c: 1 })).toEqual({
      success: false,
      issues: [
        { path: ['b'], message: 'required' },
        { path: ['a'], message: 'Instance type "string" is invalid. Expected "number"' },
        // The validator names the property in the message, at the object's path.
        { path: [], message: 'Property "c" does not match additional properties schema' },
      ],
    });
  });
});
