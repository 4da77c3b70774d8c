import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineAgent } from '../../src/loop/define-agent.js';
import { executeAgent } from '../../src/loop/execute-agent.js';
import { assertHistoryConsistent } from '../support/history-invariant.js';
import { fakeFetch, sseBody, sseResponse } from '../support/fake-fetch.js';
import { contactSchema, lookupTool } from './execute-agent-fixtures.js';

const delta = (value: Record<string, unknown>, finish: string | null = null) => ({
  id: 'x',
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta: value, finish_reason: finish }],
});
const answer = (text: string) =>
  sseResponse(
    sseBody([
      delta({ content: text.slice(0, 9) }),
      delta({ content: text.slice(9) }),
      delta({}, 'stop'),
    ]),
    {
      splitEvery: 11,
    },
  );
const callLookup = sseResponse(
  sseBody([
    delta({
      tool_calls: [
        {
          index: 0,
          id: 'call_1',
          function: { name: 'lookup_company', arguments: '{"domain":"engines.test"}' },
        },
      ],
    }),
    delta({}, 'tool_calls'),
  ]),
);

function jsonAgent(
  fetch: typeof globalThis.fetch,
  options: {
    helpers: boolean;
    validators?: ((contact: { email: string }) => string | undefined)[];
  },
) {
  return defineAgent({
    name: 'extract-contact',
    model: 'qwen3',
    baseURL: 'http://localhost:8080/v1',
    fetch,
    contextWindow: 32_768, // a known window: the scripts hold no probe of the server
    maxRetries: 0,
    systemPrompt: 'Extract the contact. Answer with JSON.',
    buildPrompt: (text: string) => `Extract the contact from: ${text}`,
    tools: {
      ...(options.helpers ? { helpers: [lookupTool()] } : {}),
      output: { mode: 'json', schema: contactSchema, name: 'contact' },
    },
    ...(options.validators ? { validation: { validators: options.validators } } : {}),
  });
}

describe('executeAgent in json mode', () => {
  it('runs a helper, answers in the format, and succeeds on attempt 2 after a schema failure the model is told about', async () => {
    const fake = fakeFetch([
      callLookup,
      answer('{"name":"Ada Lovelace"}'),
      answer('{"name":"Ada Lovelace","email":"ada@engines.test","company":"Analytical Engines"}'),
    ]);
    const failures: string[] = [];
    const result = await executeAgent(
      jsonAgent(fake.fetch, { helpers: true }),
      'Write to Ada at ada@engines.test',
      {
        callbacks: { onValidationFailure: (_state, message) => void failures.push(message) },
      },
    );

    expect(result).toMatchObject({
      ok: true,
      output: { name: 'Ada Lovelace', email: 'ada@engines.test', company: 'Analytical Engines' },
      metadata: { attempts: 2, iterations: 3 },
    });
    const bodies = fake.requests.map((request) => request.body as Record<string, unknown>);
    // The call that offers the helper goes without the format; the answer after its result carries it.
    expect(bodies[0]).toHaveProperty('tools');
    expect(bodies[0]).not.toHaveProperty('response_format');
    expect(bodies[1]).not.toHaveProperty('tools');
    expect(bodies[1]?.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: {
        name: 'contact',
        strict: true,
        schema: { type: 'object', required: ['name', 'email'] },
      },
    });
    // No output tool in json mode.
    expect(JSON.stringify(bodies[0]?.tools)).not.toContain('contact"');
    expect(failures).toEqual(['The answer does not match the "contact" schema: email: required']);
    const retry = (bodies[2]?.messages as { role: string; content: string }[]).at(-1);
    expect(retry).toEqual({
      role: 'user',
      content:
        'Your output was rejected: The answer does not match the "contact" schema: email: required\nFix this and answer again with JSON that matches the schema.',
    });
    expect(fake.unscripted).toHaveLength(0);
    assertHistoryConsistent(result.metadata.history);
  });

  it('without helpers every call carries the format; a validator rejection and invalid JSON are retried, then VALIDATION_FAILED', async () => {
    const fake = fakeFetch([
      answer('{"name":"Ada","email":"ada@example.org"}'),
      answer('Sure! Ada, ada@engines.test'),
      answer('{"name":"Ada","email":"ada@example.org"}'),
    ]);
    const noExample = (contact: { email: string }) =>
      contact.email.endsWith('@example.org')
        ? 'email must not use the example.org domain'
        : undefined;
    const result = await executeAgent(
      jsonAgent(fake.fetch, { helpers: false, validators: [noExample] }),
      'text',
    );

    expect(
      fake.requests.map(
        (request) => (request.body as Record<string, unknown>).response_format !== undefined,
      ),
    ).toEqual([true, true, true]);
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_FAILED' },
      metadata: { attempts: 3 },
    });
    if (result.ok || result.error.code !== 'VALIDATION_FAILED') throw new Error('unreachable');
    expect(result.error.context.failures.map((failure) => failure.message)).toEqual([
      'email must not use the example.org domain',
      expect.stringMatching(/^The answer is not JSON: /) as unknown,
      'email must not use the example.org domain',
    ]);
    assertHistoryConsistent(result.metadata.history);
  });

  it('rejects a json output that is not an object at definition time', () => {
    // What a JavaScript caller could pass: the types only allow object schemas.
    const notAnObject = z.string() as unknown as typeof contactSchema;
    expect(() =>
      defineAgent({
        model: 'm',
        baseURL: 'http://localhost:1/v1',
        systemPrompt: 's',
        buildPrompt: () => 'p',
        tools: { output: { mode: 'json', schema: notAnObject } },
      }),
    ).toThrow(/must describe an object/);
  });
});
