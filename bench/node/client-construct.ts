import { Client, tool, type Tool } from '../../src/index.js';
import { median } from '../support/stats.js';

/** How many constructions are timed after the first. */
const TIMED = 2_000;

/**
 * Ten JSON-Schema tools as an app writes them inline, each call a new set of objects: five flat
 * (simple-typed properties) and five that need the JSON Schema validator (nesting, arrays,
 * bounds, formats).
 */
function tenTools(): Tool[] {
  const tools: Tool[] = [];
  for (let index = 0; index < 5; index++) {
    tools.push(
      tool({
        name: `flat_${index}`,
        description: `Flat tool ${index}`,
        input: {
          type: 'object',
          properties: {
            city: { type: 'string' },
            days: { type: 'integer' },
            units: { type: 'string', enum: ['metric', 'imperial'] },
          },
          required: ['city'],
          additionalProperties: false,
        },
        execute: () => index,
      }),
      tool({
        name: `nested_${index}`,
        description: `Nested tool ${index}`,
        input: {
          type: 'object',
          properties: {
            query: { type: 'string', minLength: 1 },
            filters: {
              type: 'array',
              items: {
                type: 'object',
                properties: { field: { type: 'string' }, value: { type: 'number', minimum: 0 } },
                required: ['field', 'value'],
              },
            },
            since: { type: 'string', format: 'date' },
          },
          required: ['query'],
        },
        execute: () => index,
      }),
    );
  }
  return tools;
}

function construct(baseURL: string): Client {
  return new Client({
    baseURL,
    model: 'bench',
    autoExecuteTools: true,
    maxToolIterations: 1_000,
    maxRetries: 0,
    tools: tenTools(),
  });
}

/**
 * Times `new Client(...)` with ten JSON-Schema tools (their `tool()` calls included, as an app
 * that builds a conversation's tools inline pays them): the first in this process, then the
 * median of {@link TIMED}; and the constructor alone on tools built once.
 */
export function timeConstruction(baseURL: string): {
  firstMs: number;
  medianMs: number;
  constructorOnlyMs: number;
} {
  let start = performance.now();
  construct(baseURL);
  const firstMs = performance.now() - start;
  const samples: number[] = [];
  for (let round = 0; round < TIMED; round++) {
    start = performance.now();
    construct(baseURL);
    samples.push(performance.now() - start);
  }
  const tools = tenTools();
  const alone: number[] = [];
  for (let round = 0; round < TIMED; round++) {
    start = performance.now();
    new Client({ baseURL, model: 'bench', autoExecuteTools: true, maxRetries: 0, tools });
    alone.push(performance.now() - start);
  }
  return { firstMs, medianMs: median(samples), constructorOnlyMs: median(alone) };
}
