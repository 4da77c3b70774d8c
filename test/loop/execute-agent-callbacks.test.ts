import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentCallbacks, AgentRunState } from '../../src/loop/agent-callbacks.js';
import { defineAgent } from '../../src/loop/define-agent.js';
import { executeAgent } from '../../src/loop/execute-agent.js';
import { scriptedBackend } from '../../src/backend/scripted-backend.js';
import { tool } from '../../src/tools/tool.js';
import { assertHistoryConsistent } from '../support/history-invariant.js';
import {
  ada,
  contactAgent,
  contactSchema,
  exploding,
  lookup,
  lookupTool,
  save,
} from './execute-agent-fixtures.js';

const at = (state: AgentRunState) => `${state.attempt}.${state.iteration}`;

/** Callbacks that log every call as one line. */
function logging(log: string[]): AgentCallbacks {
  return {
    onAttemptStart: (state) => void log.push(`start ${at(state)}`),
    onToolCall: (state, name, input) =>
      void log.push(`call ${at(state)} ${name} ${JSON.stringify(input)}`),
    onToolResult: (state, name, text) => void log.push(`result ${at(state)} ${name} ${text}`),
    onValidationFailure: (state, message) => void log.push(`invalid ${at(state)} ${message}`),
  };
}

describe('executeAgent abort', () => {
  it('cancels mid-iteration with the iteration it was in, and keeps history consistent', async () => {
    const controller = new AbortController();
    const stalling = tool({
      name: 'lookup_company',
      description: 'Finds a company; the second call stalls until aborted',
      input: z.object({ domain: z.string() }),
      execute: ({ domain }) => {
        if (domain === 'first.org') return 'First Ltd';
        controller.abort();
        return new Promise(() => undefined);
      },
    });
    const { agent, backend } = contactAgent(
      [lookup('first.org'), lookup('second.org'), save(ada)],
      { helpers: [stalling] },
    );

    const result = await executeAgent(agent, 'text', { signal: controller.signal });

    expect(result).toMatchObject({
      ok: false,
      error: {
        code: 'EXECUTION_CANCELLED',
        context: { phase: 'iteration', attempt: 1, iteration: 2 },
      },
      metadata: { attempts: 1, iterations: 2 },
    });
    expect(backend.requests).toHaveLength(2);
    expect(result.metadata.history.at(-1)).toMatchObject({
      role: 'tool',
      content: expect.stringContaining('cancelled') as unknown,
    });
    assertHistoryConsistent(result.metadata.history);
  });

  it('cancels while the model streams, reporting that iteration', async () => {
    const controller = new AbortController();
    const { agent } = contactAgent([
      lookup('example.org'),
      () => {
        queueMicrotask(() => controller.abort());
        return { text: 'Thinking', hang: true };
      },
    ]);

    const result = await executeAgent(agent, 'text', { signal: controller.signal });

    expect(result).toMatchObject({
      ok: false,
      error: { code: 'EXECUTION_CANCELLED', context: { attempt: 1, iteration: 2 } },
    });
    assertHistoryConsistent(result.metadata.history);
  });

  it('makes no request when aborted before the first model call', async () => {
    const log: string[] = [];
    const { agent, backend } = contactAgent([save(ada)]);

    const result = await executeAgent(agent, 'text', {
      signal: AbortSignal.abort(),
      callbacks: logging(log),
    });

    expect(result).toMatchObject({
      ok: false,
      error: {
        code: 'EXECUTION_CANCELLED',
        context: { phase: 'iteration', attempt: 1, iteration: 1 },
      },
      metadata: { attempts: 0, iterations: 0, history: [] },
    });
    expect(backend.requests).toHaveLength(0);
    expect(log).toEqual([]);
  });

  it('does not start the next attempt once aborted during validation', async () => {
    const controller = new AbortController();
    const { agent, backend } = contactAgent([save(ada), save(ada)], {
      validators: [
        () => {
          controller.abort();
          return 'rejected';
        },
      ],
    });

    const result = await executeAgent(agent, 'text', { signal: controller.signal });

    expect(result).toMatchObject({
      ok: false,
      error: { code: 'EXECUTION_CANCELLED', context: { attempt: 2, iteration: 1 } },
      metadata: { attempts: 1 },
    });
    expect(backend.requests).toHaveLength(1);
  });
});

describe('executeAgent callbacks', () => {
  it('fires in order across attempts, with the tool results the model reads', async () => {
    const log: string[] = [];
    const { agent } = contactAgent(
      [lookup('example.org'), save(ada), save({ ...ada, email: 'ada@engines.test' })],
      {
        validators: [
          (contact) =>
            contact.email.endsWith('@example.org') ? 'use the personal address' : undefined,
        ],
      },
    );

    const result = await executeAgent(agent, 'text', { callbacks: logging(log) });

    expect(result.ok).toBe(true);
    expect(log).toEqual([
      'start 1.1',
      'call 1.1 lookup_company {"domain":"example.org"}',
      'result 1.1 lookup_company Analytical Engines Ltd',
      'call 1.2 save_contact {"name":"Ada Lovelace","email":"ada@example.org"}',
      'result 1.2 save_contact Output received; it will now be validated.',
      'invalid 1.2 use the personal address',
      'start 2.1',
      'call 2.1 save_contact {"name":"Ada Lovelace","email":"ada@engines.test"}',
      'result 2.1 save_contact Output received; it will now be validated.',
    ]);
  });

  it('reports failed tools to onToolResult as the error text the model reads', async () => {
    const log: string[] = [];
    const { agent } = contactAgent([{ toolCalls: [{ name: 'explode', input: {} }] }, save(ada)], {
      helpers: [exploding],
    });

    await executeAgent(agent, 'text', { callbacks: logging(log) });

    expect(log).toContain('result 1.1 explode Error: Tool "explode" failed: kaboom');
  });

  it('passes the tokens used so far', async () => {
    const seen: number[] = [];
    const { agent } = contactAgent(
      [
        { ...save(ada), usage: { promptTokens: 10, completionTokens: 5 } },
        {
          ...save({ ...ada, email: 'ada@engines.test' }),
          usage: { promptTokens: 20, completionTokens: 5 },
        },
      ],
      { validators: [(contact) => (contact.email.endsWith('@example.org') ? 'no' : undefined)] },
    );

    await executeAgent(agent, 'text', {
      callbacks: { onAttemptStart: (state) => void seen.push(state.tokens.totalTokens) },
    });

    expect(seen).toEqual([0, 15]);
  });

  it('collects throwing callbacks in metadata and carries on', async () => {
    const calls: string[] = [];
    const { agent } = contactAgent([lookup('example.org'), save(ada)], {
      helpers: [lookupTool(calls)],
    });

    const result = await executeAgent(agent, 'text', {
      callbacks: {
        onAttemptStart: () => Promise.reject(new Error('analytics down')),
        onToolCall: (_state, name) => {
          throw new Error(`cannot log ${name}`);
        },
      },
    });

    expect(result).toMatchObject({ ok: true, output: ada });
    expect(calls).toEqual(['example.org']);
    expect(result.metadata.callbackErrors).toEqual([
      { callback: 'onAttemptStart', message: 'analytics down' },
      { callback: 'onToolCall', message: 'cannot log lookup_company' },
      { callback: 'onToolCall', message: 'cannot log save_contact' },
    ]);
  });
});

describe('defineAgent', () => {
  const backend = scriptedBackend([]);
  const base = {
    model: 'm',
    backend,
    systemPrompt: 's',
    buildPrompt: (text: string) => text,
  };
  const output = { name: 'save_contact', description: 'd', schema: contactSchema };

  it('rejects configurations executeAgent could not run', () => {
    const external = tool({ name: 'ask_user', description: 'd', input: z.object({}) });
    const approval = tool({
      name: 'delete',
      description: 'd',
      input: z.object({}),
      execute: () => 'ok',
      needsApproval: true,
    });
    const namedSubmit = tool({
      name: 'submit',
      description: 'd',
      input: z.object({}),
      execute: () => 'ok',
    });
    expect(() => defineAgent({ ...base, tools: { helpers: [external], output } })).toThrow(
      /helper tool "ask_user" has no execute/,
    );
    expect(() => defineAgent({ ...base, tools: { helpers: [approval], output } })).toThrow(
      /"delete" needs approval/,
    );
    expect(() =>
      defineAgent({ ...base, tools: { helpers: [lookupTool(), lookupTool()], output } }),
    ).toThrow(/two tools are named "lookup_company"/);
    expect(() =>
      defineAgent({
        ...base,
        tools: { helpers: [namedSubmit], output: { ...output, reflectionHandler: () => 'ok' } },
      }),
    ).toThrow(/two tools are named "submit"/);
    expect(() =>
      defineAgent({ ...base, tools: { output: { ...output, name: 'save contact' } } }),
    ).toThrow(/Invalid tool name/);
    expect(() =>
      defineAgent({ ...base, tools: { output }, validation: { maxAttempts: 0 } }),
    ).toThrow(/maxAttempts must be a positive integer/);
    expect(() =>
      defineAgent({ ...base, tools: { output }, validation: { maxIterationsPerAttempt: 1.5 } }),
    ).toThrow(/maxIterationsPerAttempt must be a positive integer/);
  });

  it('allows a helper named submit when there is no reflection', () => {
    const namedSubmit = tool({
      name: 'submit',
      description: 'd',
      input: z.object({}),
      execute: () => 'ok',
    });
    expect(
      defineAgent({ ...base, tools: { helpers: [namedSubmit], output } }).helpers,
    ).toHaveLength(1);
  });
});
