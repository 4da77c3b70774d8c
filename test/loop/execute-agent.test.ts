import { describe, expect, it } from 'vitest';
import { AgentError } from '../../src/errors/agent-error.js';
import { executeAgent } from '../../src/loop/execute-agent.js';
import { assertHistoryConsistent } from '../support/history-invariant.js';
import {
  ada,
  contactAgent,
  exploding,
  lastMessageOf,
  lookup,
  lookupTool,
  save,
  shape,
} from './execute-agent-fixtures.js';

describe('executeAgent without reflection', () => {
  it('runs a helper, then takes the first output call as the output', async () => {
    const calls: string[] = [];
    const { agent, backend } = contactAgent(
      [lookup('example.org'), save({ ...ada, company: 'Analytical Engines Ltd' })],
      {
        helpers: [lookupTool(calls)],
      },
    );

    const result = await executeAgent(agent, 'Ada, ada@example.org');

    expect(result).toMatchObject({
      ok: true,
      output: { ...ada, company: 'Analytical Engines Ltd' },
      metadata: { attempts: 1, iterations: 2, callbackErrors: [] },
    });
    expect(calls).toEqual(['example.org']);
    expect(backend.requests).toHaveLength(2);
    expect(backend.requests[0]?.messages).toEqual([
      { role: 'system', content: 'Extract the contact and call save_contact.' },
      { role: 'user', content: 'Extract the contact from: Ada, ada@example.org' },
    ]);
    expect(backend.requests[0]?.tools?.map((definition) => definition.function.name)).toEqual([
      'lookup_company',
      'save_contact',
    ]);
    expect(backend.requests[0]?.tools?.[1]?.function.parameters).toMatchObject({
      type: 'object',
      required: ['name', 'email'],
    });
    expect(lastMessageOf(backend.requests, 1)).toMatchObject({
      role: 'tool',
      content: 'Analytical Engines Ltd',
    });
    expect(shape(result.metadata.history)).toEqual([
      'user',
      'assistant:lookup_company',
      'tool:lookup_company',
      'assistant:save_contact',
      'tool:save_contact',
    ]);
    assertHistoryConsistent(result.metadata.history);
  });

  it('runs several helpers in sequence, within a response and across iterations', async () => {
    const calls: string[] = [];
    const { agent } = contactAgent(
      [
        {
          toolCalls: [
            { name: 'lookup_company', input: { domain: 'a.org' } },
            { name: 'lookup_company', input: { domain: 'b.org' } },
          ],
        },
        lookup('c.org'),
        save(ada),
      ],
      { helpers: [lookupTool(calls)] },
    );

    const result = await executeAgent(agent, 'text');

    expect(result.ok).toBe(true);
    expect(calls).toEqual(['a.org', 'b.org', 'c.org']);
    expect(result.metadata.iterations).toBe(3);
    // One assistant message per iteration with all its calls, then one tool message per call.
    expect(shape(result.metadata.history)).toEqual([
      'user',
      'assistant:lookup_company+lookup_company',
      'tool:lookup_company',
      'tool:lookup_company',
      'assistant:lookup_company',
      'tool:lookup_company',
      'assistant:save_contact',
      'tool:save_contact',
    ]);
    assertHistoryConsistent(result.metadata.history);
  });

  it('still runs the helpers called beside the output, in order, and ends the attempt', async () => {
    const calls: string[] = [];
    const { agent, backend } = contactAgent(
      [
        {
          toolCalls: [
            { name: 'lookup_company', input: { domain: 'a.org' } },
            { name: 'save_contact', input: ada },
            { name: 'lookup_company', input: { domain: 'b.org' } },
          ],
        },
      ],
      { helpers: [lookupTool(calls)] },
    );

    const result = await executeAgent(agent, 'text');

    expect(result).toMatchObject({ ok: true, output: ada, metadata: { iterations: 1 } });
    expect(calls).toEqual(['a.org', 'b.org']);
    expect(backend.requests).toHaveLength(1);
    expect(shape(result.metadata.history)).toEqual([
      'user',
      'assistant:lookup_company+save_contact+lookup_company',
      'tool:lookup_company',
      'tool:save_contact',
      'tool:lookup_company',
    ]);
    assertHistoryConsistent(result.metadata.history);
  });

  it('takes the last output call of a response', async () => {
    const { agent } = contactAgent([
      {
        toolCalls: [
          { name: 'save_contact', input: { name: 'First Draft', email: 'draft@example.org' } },
          { name: 'save_contact', input: ada },
        ],
      },
    ]);

    const result = await executeAgent(agent, 'text');

    expect(result).toMatchObject({
      ok: true,
      output: ada,
      metadata: { iterations: 1, attempts: 1 },
    });
    assertHistoryConsistent(result.metadata.history);
  });

  it('returns helper errors and unknown tools to the model as error results, and goes on', async () => {
    const { agent, backend } = contactAgent(
      [
        {
          toolCalls: [
            { name: 'explode', input: {} },
            { name: 'guess_email', input: {} },
          ],
        },
        save(ada),
      ],
      { helpers: [exploding] },
    );

    const result = await executeAgent(agent, 'text');

    expect(result).toMatchObject({ ok: true, output: ada });
    const told = backend.requests[1]?.messages.slice(-2);
    expect(told).toEqual([
      {
        role: 'tool',
        tool_call_id: expect.any(String) as unknown,
        name: 'explode',
        content: 'Error: Tool "explode" failed: kaboom',
      },
      {
        role: 'tool',
        tool_call_id: expect.any(String) as unknown,
        name: 'guess_email',
        content: 'Error: Tool "guess_email" not found. Available tools: explode, save_contact',
      },
    ]);
    assertHistoryConsistent(result.metadata.history);
  });

  it('fails with INVALID_RESPONSE when a response calls no tool', async () => {
    const { agent, backend } = contactAgent([
      lookup('example.org'),
      { text: 'Ada is at ada@example.org.' },
    ]);

    const result = await executeAgent(agent, 'text');

    expect(result).toMatchObject({
      ok: false,
      error: {
        code: 'INVALID_RESPONSE',
        context: { attempt: 1, iteration: 2, text: 'Ada is at ada@example.org.' },
      },
      metadata: { attempts: 1, iterations: 2 },
    });
    expect(backend.requests).toHaveLength(2);
    assertHistoryConsistent(result.metadata.history);
  });

  it('returns an HTTP error as a result with its status and where it happened', async () => {
    const { agent } = contactAgent([
      lookup('example.org'),
      {
        failRequest: new AgentError('HTTP_ERROR', 'HTTP 503 from the server: model is loading', {
          status: 503,
        }),
      },
    ]);

    const result = await executeAgent(agent, 'text');

    expect(result).toMatchObject({
      ok: false,
      error: {
        code: 'HTTP_ERROR',
        message: 'HTTP 503 from the server: model is loading',
        context: { attempt: 1, iteration: 2, status: 503 },
      },
      metadata: { attempts: 1, iterations: 1 },
    });
    assertHistoryConsistent(result.metadata.history);
  });

  it('returns a network error as a result', async () => {
    const { agent } = contactAgent([
      { failRequest: new AgentError('NETWORK_ERROR', 'fetch failed: connection refused') },
    ]);

    const result = await executeAgent(agent, 'text');

    expect(result).toMatchObject({
      ok: false,
      error: { code: 'NETWORK_ERROR', context: { attempt: 1, iteration: 1 } },
    });
  });
});
