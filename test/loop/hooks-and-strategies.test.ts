import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  combineStrategies,
  maxIterations,
  untilFinishReason,
} from '../../src/loop/loop-strategies.js';
import { tool } from '../../src/tools/tool.js';
import { collect } from '../support/collect.js';
import { assertHistoryConsistent } from '../support/history-invariant.js';
import { scriptedClient } from './fixtures.js';

const counterTool = (execute: (input: { n?: number | undefined }) => unknown = () => 'ok') =>
  tool({
    name: 'step',
    description: 'one step',
    input: z.object({ n: z.number().optional() }),
    execute,
  });

describe('hooks', () => {
  it('fires UserPromptSubmit once across a 3-iteration run, never on continuation', async () => {
    const onPrompt = vi.fn();
    const { client } = scriptedClient(
      [
        { toolCalls: [{ name: 'step', input: {} }] },
        { toolCalls: [{ name: 'step', input: {} }] },
        { text: 'end' },
      ],
      { tools: [counterTool()], autoExecuteTools: true, hooks: { UserPromptSubmit: [onPrompt] } },
    );
    const events = await collect(client.run('go'));
    expect(events.at(-1)).toMatchObject({ iterations: 3, status: 'completed' });
    expect(onPrompt).toHaveBeenCalledOnce();
  });

  it('lets UserPromptSubmit rewrite or block the prompt', async () => {
    const { client, backend } = scriptedClient([{ text: 'ok' }], {
      hooks: { UserPromptSubmit: [({ prompt }) => ({ prompt: prompt.toUpperCase() })] },
    });
    await collect(client.run('hello'));
    expect(backend.requests[0]?.messages).toEqual([{ role: 'user', content: 'HELLO' }]);

    const blocked = scriptedClient([], {
      hooks: { UserPromptSubmit: [() => ({ continue: false, reason: 'no secrets' })] },
    });
    expect(await blocked.client.query('my password is x')).toEqual({
      accepted: false,
      reason: 'no secrets',
    });
    const events = await collect(blocked.client.run('again'));
    expect(events).toEqual([
      {
        type: 'done',
        status: 'completed',
        finishReason: null,
        usage: expect.anything() as unknown,
        iterations: 0,
      },
    ]);
    expect(blocked.backend.requests).toHaveLength(0);
    expect(blocked.client.history).toEqual([]);
  });

  it('PreToolUse deny prevents execution and reports TOOL_DENIED to the model', async () => {
    const execute = vi.fn(() => 'ran');
    const { client, backend } = scriptedClient(
      [{ toolCalls: [{ name: 'step', input: {} }] }, { text: 'ok' }],
      {
        tools: [counterTool(execute)],
        autoExecuteTools: true,
        hooks: {
          PreToolUse: [
            ({ toolName }) =>
              toolName === 'step' ? { continue: false, reason: 'not today' } : undefined,
          ],
        },
      },
    );
    const events = await collect(client.run('go'));
    expect(execute).not.toHaveBeenCalled();
    expect(events.find((event) => event.type === 'tool_use_error')).toMatchObject({
      code: 'TOOL_DENIED',
    });
    expect(backend.requests[1]?.messages.at(-1)?.content).toContain('not today');
    assertHistoryConsistent(client.history);
  });

  it('PreToolUse rewrites input and can ask for approval; PostToolUse replaces what the model is told', async () => {
    const execute = vi.fn((input: { n?: number | undefined }) => `n=${String(input.n)}`);
    const post = vi.fn(({ result }: { result: unknown }) => ({
      result: `${String(result)} (checked)`,
    }));
    const { client, backend } = scriptedClient(
      [{ toolCalls: [{ name: 'step', input: { n: 1 } }] }, { text: 'ok' }],
      {
        tools: [counterTool(execute)],
        autoExecuteTools: true,
        hooks: {
          PreToolUse: [({ input }) => ({ input: { n: Number(input.n) + 10 } })],
          PostToolUse: [post],
        },
      },
    );
    await collect(client.run('go'));
    expect(execute).toHaveBeenCalledWith({ n: 11 }, expect.anything());
    expect(post).toHaveBeenCalledWith(expect.objectContaining({ result: 'n=11', isError: false }));
    expect(backend.requests[1]?.messages.at(-1)?.content).toBe('n=11 (checked)');

    const asking = scriptedClient([{ toolCalls: [{ name: 'step', input: {}, id: 's1' }] }], {
      tools: [counterTool()],
      autoExecuteTools: true,
      hooks: { PreToolUse: [() => ({ decision: 'ask' as const })] },
    });
    const events = await collect(asking.client.run('go'));
    expect(events.find((event) => event.type === 'awaiting_tool_results')).toMatchObject({
      pending: [{ toolUseId: 's1', reason: 'approval' }],
    });
  });

  it('reports a throwing hook instead of crashing; a throwing PreToolUse denies (fail closed)', async () => {
    const onError = vi.fn();
    const execute = vi.fn(() => 'ran');
    const { client } = scriptedClient(
      [{ toolCalls: [{ name: 'step', input: {} }] }, { text: 'ok' }],
      {
        tools: [counterTool(execute)],
        autoExecuteTools: true,
        onError,
        hooks: {
          UserPromptSubmit: [
            () => {
              throw new Error('prompt hook bug');
            },
          ],
          PreToolUse: [
            () => {
              throw new Error('policy bug');
            },
          ],
        },
      },
    );
    const events = await collect(client.run('go'));
    expect(onError).toHaveBeenCalledTimes(2);
    expect(execute).not.toHaveBeenCalled();
    expect(events.at(-1)).toMatchObject({ status: 'completed' });
  });
});

describe('loop strategies', () => {
  const state = (iterationCount: number, finishReason: string | null = 'tool_calls') => ({
    iterationCount,
    messages: [],
    finishReason,
  });

  it('compose as English', () => {
    expect(maxIterations(2)(state(1))).toBe(true);
    expect(maxIterations(2)(state(2))).toBe(false);
    expect(untilFinishReason(['length'])(state(9, 'tool_calls'))).toBe(true);
    expect(untilFinishReason(['length'])(state(1, 'length'))).toBe(false);
    expect(combineStrategies([maxIterations(5), untilFinishReason(['length'])])(state(5))).toBe(
      false,
    );
  });

  it('replaces maxToolIterations in the loop', async () => {
    const strategy = vi.fn(maxIterations(1));
    const forever = { toolCalls: [{ name: 'step', input: {} }] };
    const { client, backend } = scriptedClient([forever, forever, forever], {
      tools: [counterTool()],
      autoExecuteTools: true,
      loopStrategy: strategy,
      maxToolIterations: 99,
    });
    const events = await collect(client.run('go'));
    expect(backend.requests).toHaveLength(1);
    expect(strategy).toHaveBeenCalledWith(
      expect.objectContaining({ iterationCount: 1, finishReason: 'tool_calls' }),
    );
    expect(events.at(-1)).toMatchObject({ status: 'max_iterations' });
  });

  it('passes toolChoice and parallelToolCalls through', async () => {
    const { client, backend } = scriptedClient([{ text: 'ok' }], {
      toolChoice: 'required',
      parallelToolCalls: false,
    });
    await collect(client.run('go'));
    expect(backend.requests[0]).toMatchObject({
      tool_choice: 'required',
      parallel_tool_calls: false,
      stream: true,
      stream_options: { include_usage: true },
    });
  });
});
