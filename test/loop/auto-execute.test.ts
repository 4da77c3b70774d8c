import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { tool } from '../../src/tools/tool.js';
import { collect, deferred, types } from '../support/collect.js';
import { assertHistoryConsistent } from '../support/history-invariant.js';
import { failing, scriptedClient } from './fixtures.js';

describe('Client with autoExecuteTools', () => {
  it('runs a tool, feeds the result back and finishes', async () => {
    const { client, backend } = scriptedClient(
      [
        { toolCalls: [{ name: 'add', input: { a: 2, b: 3 }, id: 'call_1' }] },
        { text: 'The sum is 5.' },
      ],
      { autoExecuteTools: true },
    );
    const events = await collect(client.run('What is 2+3?'));
    expect(types(events)).toEqual([
      'tool_use',
      'step_end',
      'tool_result',
      'text',
      'text',
      'text',
      'text',
      'step_end',
      'done',
    ]);
    expect(events[2]).toEqual({
      type: 'tool_result',
      toolUseId: 'call_1',
      name: 'add',
      content: 5,
      isError: false,
    });
    expect(events.at(-1)).toMatchObject({
      type: 'done',
      status: 'completed',
      finishReason: 'stop',
      iterations: 2,
    });
    expect(backend.requests[1]?.messages.at(-1)).toEqual({
      role: 'tool',
      tool_call_id: 'call_1',
      name: 'add',
      content: '5',
    });
    expect(client.history).toHaveLength(4);
    assertHistoryConsistent(client.history);
  });

  it('reports a throwing tool as TOOL_FAILED and lets the model recover', async () => {
    const { client, backend } = scriptedClient(
      [{ toolCalls: [{ name: 'explode', input: {} }] }, { text: 'Sorry.' }],
      { autoExecuteTools: true, tools: [failing] },
    );
    const events = await collect(client.run('go'));
    expect(events.find((event) => event.type === 'tool_use_error')).toMatchObject({
      code: 'TOOL_FAILED',
      name: 'explode',
    });
    expect(backend.requests[1]?.messages.at(-1)?.content).toContain('kaboom');
    expect(events.at(-1)).toMatchObject({ status: 'completed' });
    assertHistoryConsistent(client.history);
  });

  it('answers an unknown tool with TOOL_NOT_FOUND listing the available tools', async () => {
    const { client, backend } = scriptedClient(
      [{ toolCalls: [{ name: 'multiply', input: { a: 1 } }] }, { text: 'ok' }],
      { autoExecuteTools: true },
    );
    const events = await collect(client.run('go'));
    expect(events.find((event) => event.type === 'tool_use_error')).toMatchObject({
      code: 'TOOL_NOT_FOUND',
      name: 'multiply',
    });
    expect(backend.requests[1]?.messages.at(-1)?.content).toBe(
      'Error: Tool "multiply" not found. Available tools: add',
    );
    assertHistoryConsistent(client.history);
  });

  it("answers invalid arguments with zod's message so the model can fix its call", async () => {
    const execute = vi.fn();
    const strict = tool({
      name: 'add',
      description: 'adds',
      input: z.object({ a: z.number(), b: z.number() }),
      execute,
    });
    const { client, backend } = scriptedClient(
      [{ toolCalls: [{ name: 'add', input: { a: 'two', b: 3 } }] }, { text: 'fixed' }],
      { autoExecuteTools: true, tools: [strict] },
    );
    const events = await collect(client.run('go'));
    expect(execute).not.toHaveBeenCalled();
    const error = events.find((event) => event.type === 'tool_use_error');
    expect(error).toMatchObject({ code: 'INVALID_TOOL_INPUT' });
    expect(backend.requests[1]?.messages.at(-1)?.content).toMatch(
      /^Error: Tool "add" received invalid input: a: .*number/,
    );
    assertHistoryConsistent(client.history);
  });

  it('reports arguments that are not JSON without executing', async () => {
    const execute = vi.fn();
    const spy = tool({
      name: 'add',
      description: 'adds',
      input: z.object({ a: z.number() }),
      execute,
    });
    const { client } = scriptedClient(
      [{ toolCalls: [{ name: 'add', arguments: '{"a": 1', id: 'bad1' }] }, { text: 'ok' }],
      { autoExecuteTools: true, tools: [spy] },
    );
    const events = await collect(client.run('go'));
    expect(execute).not.toHaveBeenCalled();
    expect(events.find((event) => event.type === 'tool_use_error')).toMatchObject({
      code: 'INVALID_TOOL_INPUT',
      rawData: '{"a": 1',
    });
    assertHistoryConsistent(client.history);
  });

  it('times a slow tool out with TOOL_TIMEOUT and aborts its signal', async () => {
    let seen: AbortSignal | undefined;
    const slow = tool({
      name: 'slow',
      description: 'never ends',
      input: z.object({}),
      timeoutMs: 20,
      execute: (_input, { signal }) => {
        seen = signal;
        return new Promise(() => undefined);
      },
    });
    const { client } = scriptedClient(
      [{ toolCalls: [{ name: 'slow', input: {} }] }, { text: 'ok' }],
      {
        autoExecuteTools: true,
        tools: [slow],
      },
    );
    const events = await collect(client.run('go'));
    expect(events.find((event) => event.type === 'tool_use_error')).toMatchObject({
      code: 'TOOL_TIMEOUT',
    });
    expect(seen?.aborted).toBe(true);
    assertHistoryConsistent(client.history);
  });

  it('runs parallel calls concurrently and keeps call order in history', async () => {
    const started: string[] = [];
    const allStarted = deferred();
    const slowFirst = tool({
      name: 'work',
      description: 'works',
      input: z.object({ label: z.string() }),
      execute: async ({ label }) => {
        started.push(label);
        if (started.length === 3) allStarted.resolve();
        // The first call finishes only once the others have started: sequential execution
        // would never reach that point, so the race below would pick 'sequential'.
        if (label === 'first') {
          const outcome = await Promise.race([
            allStarted.promise.then(() => 'concurrent'),
            new Promise((resolve) => setTimeout(resolve, 2000, 'sequential')),
          ]);
          return `${label}:${String(outcome)}`;
        }
        return label;
      },
    });
    const { client, backend } = scriptedClient(
      [
        {
          toolCalls: ['first', 'second', 'third'].map((label) => ({
            name: 'work',
            input: { label },
            id: `id_${label}`,
          })),
        },
        { text: 'done' },
      ],
      { autoExecuteTools: true, tools: [slowFirst] },
    );
    const events = await collect(client.run('go'));
    const results = events.flatMap((event) =>
      event.type === 'tool_result' ? [event.content] : [],
    );
    expect(results).toEqual(['second', 'third', 'first:concurrent']);
    const toolMessages = backend.requests[1]?.messages.filter((message) => message.role === 'tool');
    expect(toolMessages?.map((message) => message.content)).toEqual([
      'first:concurrent',
      'second',
      'third',
    ]);
    assertHistoryConsistent(client.history);
  });

  it('stops a model that loops forever at exactly maxToolIterations rounds', async () => {
    const execute = vi.fn(() => 1);
    const counter = tool({ name: 'count', description: 'counts', input: z.object({}), execute });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    // A model that always calls the tool again.
    const forever = { toolCalls: [{ name: 'count', input: {} }] };
    const looping = scriptedClient(
      Array.from({ length: 10 }, () => forever),
      { autoExecuteTools: true, tools: [counter], maxToolIterations: 3 },
    );
    const events = await collect(looping.client.run('loop'));
    expect(execute).toHaveBeenCalledTimes(3);
    expect(looping.backend.requests).toHaveLength(3);
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'max_iterations', iterations: 3 });
    expect(warn).toHaveBeenCalledOnce();
    warn.mockRestore();
    assertHistoryConsistent(looping.client.history);
    expect(looping.client.status).toBe('idle');
  });

  it('accumulates usage across iterations and estimates it when the server sends none', async () => {
    const { client } = scriptedClient(
      [
        {
          toolCalls: [{ name: 'add', input: { a: 1, b: 1 } }],
          usage: { promptTokens: 10, completionTokens: 5 },
        },
        { text: 'two', usage: { promptTokens: 20, completionTokens: 2 } },
      ],
      { autoExecuteTools: true },
    );
    const events = await collect(client.run('1+1'));
    expect(events.at(-1)).toMatchObject({
      usage: { promptTokens: 30, completionTokens: 7, totalTokens: 37 },
    });
    const second = scriptedClient([{ text: 'no usage here' }, { text: 'still none' }]);
    const estimated = await collect(second.client.run('hello'));
    const done = estimated.at(-1);
    expect(done?.type === 'done' && done.usage.estimated).toBe(true);
    expect(done?.type === 'done' && done.usage.completionTokens).toBeGreaterThan(0);
    await collect(second.client.run('again'));
    expect(second.client.usage.totalTokens).toBeGreaterThan(
      done?.type === 'done' ? done.usage.totalTokens : 0,
    );
  });

  it('throws transport errors with history left consistent and partial text kept', async () => {
    const { AgentError } = await import('../../src/errors/agent-error.js');
    const { client } = scriptedClient(
      [
        { toolCalls: [{ name: 'add', input: { a: 1, b: 2 } }] },
        { text: 'partial answer', error: new AgentError('STREAM_ERROR', 'model crashed') },
      ],
      { autoExecuteTools: true },
    );
    const seen: string[] = [];
    await expect(async () => {
      for await (const event of client.run('go')) seen.push(event.type);
    }).rejects.toMatchObject({ code: 'STREAM_ERROR', message: 'model crashed' });
    expect(seen).toContain('tool_result');
    expect(client.history.at(-1)).toEqual({ role: 'assistant', content: 'partial answer' });
    assertHistoryConsistent(client.history);
    expect(client.status).toBe('idle');
  });
});
