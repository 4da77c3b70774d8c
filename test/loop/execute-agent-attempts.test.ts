import { describe, expect, it } from 'vitest';
import { executeAgent } from '../../src/loop/execute-agent.js';
import { assertHistoryConsistent } from '../support/history-invariant.js';
import { ada, contactAgent, lastMessageOf, lookup, save, shape } from './execute-agent-fixtures.js';

const noExampleDomains = (contact: { email: string }) =>
  contact.email.endsWith('@example.org') ? 'email must not use the example.org domain' : undefined;

describe('executeAgent attempts and limits', () => {
  it('stops an attempt after 15 iterations by default with MAX_ITERATIONS', async () => {
    const { agent, backend } = contactAgent([], { respond: () => lookup('example.org') });

    const result = await executeAgent(agent, 'text');

    expect(result).toMatchObject({
      ok: false,
      error: {
        code: 'MAX_ITERATIONS',
        context: { attempt: 1, iterationCount: 15, maxIterations: 15 },
      },
      metadata: { attempts: 1, iterations: 15 },
    });
    expect(backend.requests).toHaveLength(15);
    assertHistoryConsistent(result.metadata.history);
  });

  it('honours a custom maxIterationsPerAttempt', async () => {
    const { agent, backend } = contactAgent([], {
      respond: () => lookup('example.org'),
      maxIterationsPerAttempt: 3,
    });

    const result = await executeAgent(agent, 'text');

    expect(result).toMatchObject({
      ok: false,
      error: {
        code: 'MAX_ITERATIONS',
        context: { attempt: 1, iterationCount: 3, maxIterations: 3 },
      },
    });
    expect(backend.requests).toHaveLength(3);
  });

  it('accepts an output produced in the last allowed iteration', async () => {
    const { agent } = contactAgent([lookup('a.org'), lookup('b.org'), save(ada)], {
      maxIterationsPerAttempt: 3,
    });

    const result = await executeAgent(agent, 'text');

    expect(result).toMatchObject({ ok: true, metadata: { iterations: 3 } });
  });

  it('shows a validator failure to the model in the same conversation and succeeds on attempt 2', async () => {
    const fixed = { ...ada, email: 'ada@engines.test' };
    const { agent, backend } = contactAgent([lookup('example.org'), save(ada), save(fixed)], {
      validators: [noExampleDomains],
    });

    const result = await executeAgent(agent, 'text');

    expect(result).toMatchObject({
      ok: true,
      output: fixed,
      metadata: { attempts: 2, iterations: 3 },
    });
    const retry = backend.requests[2]?.messages ?? [];
    expect(retry.at(-1)).toEqual({
      role: 'user',
      content:
        'Your output was rejected: email must not use the example.org domain\nFix this and call "save_contact" again with a corrected output.',
    });
    // The whole first attempt is still in view.
    expect(shape(retry)).toEqual([
      'system',
      'user',
      'assistant:lookup_company',
      'tool:lookup_company',
      'assistant:save_contact',
      'tool:save_contact',
      'user',
    ]);
    assertHistoryConsistent(result.metadata.history);
  });

  it('checks the schema first and names the failing field', async () => {
    const { agent, backend } = contactAgent(
      [save({ name: 'Ada', email: 'ada at example' }), save(ada)],
      {
        validators: [() => 'validators run only on schema-valid output'],
        maxAttempts: 2,
      },
    );

    const result = await executeAgent(agent, 'text');

    expect(lastMessageOf(backend.requests, 1)?.content).toMatch(
      /^Your output was rejected: The output does not match the schema: email: Invalid email/,
    );
    expect(result).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
  });

  it('fails with VALIDATION_FAILED listing every attempt when all attempts fail', async () => {
    const { agent, backend } = contactAgent(
      [
        save(ada),
        save({ ...ada, email: 'lovelace@example.org' }),
        save({ name: 'Ada', email: 'nope' }),
      ],
      {
        validators: [noExampleDomains],
      },
    );

    const result = await executeAgent(agent, 'text');

    expect(result).toMatchObject({
      ok: false,
      error: {
        code: 'VALIDATION_FAILED',
        context: {
          failures: [
            { attempt: 1, message: 'email must not use the example.org domain' },
            { attempt: 2, message: 'email must not use the example.org domain' },
            {
              attempt: 3,
              message: expect.stringMatching(
                /^The output does not match the schema: email:/,
              ) as unknown,
            },
          ],
        },
      },
      metadata: { attempts: 3, iterations: 3 },
    });
    expect(backend.requests).toHaveLength(3);
    assertHistoryConsistent(result.metadata.history);
  });

  it('treats a throwing validator as a rejection with its message', async () => {
    const { agent, backend } = contactAgent([save(ada), save(ada)], {
      validators: [
        () => {
          throw new Error('CRM lookup failed');
        },
      ],
      maxAttempts: 2,
    });

    const result = await executeAgent(agent, 'text');

    expect(lastMessageOf(backend.requests, 1)?.content).toMatch(
      /^Your output was rejected: CRM lookup failed/,
    );
    expect(result).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
  });

  it('sums tokens over every iteration and attempt', async () => {
    const { agent } = contactAgent(
      [
        { ...lookup('example.org'), usage: { promptTokens: 100, completionTokens: 10 } },
        { ...save(ada), usage: { promptTokens: 150, completionTokens: 20 } },
        {
          ...save({ ...ada, email: 'ada@engines.test' }),
          usage: { promptTokens: 200, completionTokens: 30 },
        },
      ],
      { validators: [noExampleDomains] },
    );

    const result = await executeAgent(agent, 'text');

    expect(result.ok).toBe(true);
    expect(result.metadata.tokens).toEqual({
      promptTokens: 450,
      completionTokens: 60,
      totalTokens: 510,
    });
    expect(result.metadata.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('estimates tokens when the server reports none', async () => {
    const { agent } = contactAgent([{ ...save(ada), usage: null }]);

    const result = await executeAgent(agent, 'text');

    expect(result.metadata.tokens).toMatchObject({ estimated: true });
    expect(result.metadata.tokens.totalTokens).toBeGreaterThan(0);
  });
});
