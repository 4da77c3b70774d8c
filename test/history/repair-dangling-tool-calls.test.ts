import { describe, expect, test } from 'vitest';
import {
  INTERRUPTED_TOOL_RESULT,
  pendingToolCallIds,
  repairDanglingToolCalls,
} from '../../src/history/repair-dangling-tool-calls.js';
import type { Message } from '../../src/types/message.js';
import { assistant, callsTools, toolResult, user } from './fixtures.js';

const interrupted = (id: string) => toolResult(id, INTERRUPTED_TOOL_RESULT);

describe('repairDanglingToolCalls', () => {
  test('a complete conversation comes back equal, as a new array', () => {
    const messages: Message[] = [
      { role: 'system', content: 'be brief' },
      user('hi'),
      callsTools('a', 'b'),
      toolResult('a'),
      toolResult('b'),
      assistant('done'),
    ];
    const repaired = repairDanglingToolCalls(messages);
    expect(repaired).toEqual(messages);
    expect(repaired).not.toBe(messages);
  });

  test('a last turn cut before any result gets one interrupted result per call, in call order', () => {
    const messages = [user('go'), callsTools('a', 'b')];
    expect(repairDanglingToolCalls(messages)).toEqual([
      user('go'),
      callsTools('a', 'b'),
      interrupted('a'),
      interrupted('b'),
    ]);
    expect(messages).toHaveLength(2);
  });

  test('missing results go after the turn’s existing ones, before the next user message', () => {
    const messages = [
      callsTools('a', 'b', 'c'),
      toolResult('b'),
      user('next'),
      callsTools('d'),
      assistant('no result for d either'),
    ];
    expect(repairDanglingToolCalls(messages)).toEqual([
      callsTools('a', 'b', 'c'),
      toolResult('b'),
      interrupted('a'),
      interrupted('c'),
      user('next'),
      callsTools('d'),
      interrupted('d'),
      assistant('no result for d either'),
    ]);
  });

  test('the result carries the call id and the tool name', () => {
    expect(repairDanglingToolCalls([callsTools('x')])[1]).toEqual({
      role: 'tool',
      tool_call_id: 'x',
      name: 'tool_x',
      content:
        'Error: the tool call was interrupted (the page was closed or reloaded before it finished).',
    });
  });

  test('calls a paused run still awaits are left without a result', () => {
    const messages = [callsTools('a', 'b', 'c'), toolResult('a')];
    expect(repairDanglingToolCalls(messages, new Set(['c']))).toEqual([
      callsTools('a', 'b', 'c'),
      toolResult('a'),
      interrupted('b'),
    ]);
  });

  test('an assistant message with an empty tool_calls list needs nothing', () => {
    const messages: Message[] = [{ role: 'assistant', content: 'hi', tool_calls: [] }];
    expect(repairDanglingToolCalls(messages)).toEqual(messages);
  });
});

describe('pendingToolCallIds', () => {
  test('reads toolUseId from the pending array of a paused state', () => {
    const ids = pendingToolCallIds({
      pending: [
        { toolUseId: 'a', name: 'n', input: {}, reason: 'external' },
        { toolUseId: 7 },
        null,
      ],
    });
    expect([...ids]).toEqual(['a']);
  });

  test('anything else gives no ids', () => {
    expect(pendingToolCallIds(undefined).size).toBe(0);
    expect(pendingToolCallIds({ pending: 'a' }).size).toBe(0);
    expect(pendingToolCallIds({ other: [{ toolUseId: 'a' }] }).size).toBe(0);
  });
});
