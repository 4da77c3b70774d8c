import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { scriptedBackend } from '../../src/backend/scripted-backend.js';
import { Client } from '../../src/loop/client.js';
import { query } from '../../src/loop/query.js';
import { tool } from '../../src/tools/tool.js';
import type { AgentEvent } from '../../src/types/events.js';
import { collect } from '../support/collect.js';

const paid: unknown[] = [];
const sendMoney = tool({
  name: 'send_money',
  description: 'Sends money',
  input: z.object({ to: z.string(), amount: z.number() }),
  execute: (input) => {
    paid.push(input);
    return 'sent';
  },
});
const markup =
  '<tool_call>{"name": "send_money", "arguments": {"to": "bob", "amount": 5}}</tool_call>';

const ofType = <T extends AgentEvent['type']>(events: AgentEvent[], type: T) =>
  events.filter((event): event is Extract<AgentEvent, { type: T }> => event.type === type);

describe('query(): a model that starts mid-thought (issue 28, first row of the table)', () => {
  it('gives the answer as text and the thought as reasoning', async () => {
    const events = await collect(
      query('2 + 2?', {
        model: 'qwen3.5-35b-a3b',
        backend: scriptedBackend([
          { text: ['Let me think about', ' this carefully.\n</think>\n\nThe answer', ' is 4.'] },
        ]),
      }),
    );

    expect(
      ofType(events, 'text')
        .map((event) => event.text)
        .join(''),
    ).toBe('The answer is 4.');
    expect(
      ofType(events, 'reasoning')
        .map((event) => event.text)
        .join(''),
    ).toBe('Let me think about this carefully.\n');
  });

  it('can be told a model starts mid-thought when its name does not say so', async () => {
    const events = await collect(
      query('2 + 2?', {
        model: 'my-finetune',
        textMarkup: { startsInReasoning: true },
        backend: scriptedBackend([{ text: ['hm', '</think>4'] }]),
      }),
    );

    expect(ofType(events, 'text').map((event) => event.text)).toEqual(['4']);
  });
});

describe('calls recovered from text (issue 27, item 3)', () => {
  it('marks a call read from text, and not a structured one', async () => {
    const events = await collect(
      query('Pay', {
        model: 'm',
        tools: [sendMoney],
        backend: scriptedBackend([
          { text: [markup], toolCalls: [{ name: 'send_money', input: { to: 'amy', amount: 1 } }] },
        ]),
      }),
    );

    expect(ofType(events, 'tool_use').map((use) => [use.input, use.recoveredFromText])).toEqual([
      [{ to: 'amy', amount: 1 }, undefined],
      [{ to: 'bob', amount: 5 }, true],
    ]);
  });

  it("leaves markup as text with textMarkup.toolCalls 'off'", async () => {
    const events = await collect(
      query('Pay', {
        model: 'm',
        tools: [sendMoney],
        textMarkup: { toolCalls: 'off' },
        backend: scriptedBackend([{ text: [markup] }]),
      }),
    );

    expect(ofType(events, 'tool_use')).toEqual([]);
    expect(
      ofType(events, 'text')
        .map((event) => event.text)
        .join(''),
    ).toBe(markup);
  });

  it("pauses a recovered call for approval with textMarkup.toolCalls 'ask', and runs it once approved", async () => {
    paid.length = 0;
    const client = new Client({
      model: 'm',
      tools: [sendMoney],
      autoExecuteTools: true,
      textMarkup: { toolCalls: 'ask' },
      backend: scriptedBackend([{ text: [markup] }, { text: 'Done.' }]),
    });

    const first = await collect(client.run('Pay bob'));

    expect(paid).toEqual([]);
    const [pause] = ofType(first, 'awaiting_tool_results');
    expect(pause?.pending).toEqual([
      expect.objectContaining({ name: 'send_money', reason: 'approval' }),
    ]);
    client.approve(pause?.pending[0]?.toolUseId ?? '');
    await collect(client.receiveMessages());
    expect(paid).toEqual([{ to: 'bob', amount: 5 }]);
  });

  it('types untyped values by the schema (GLM writes every value as text)', async () => {
    paid.length = 0;
    const events = await collect(
      new Client({
        model: 'glm-4.7',
        tools: [sendMoney],
        autoExecuteTools: true,
        backend: scriptedBackend([
          {
            text: [
              '<tool_call>send_money<arg_key>to</arg_key><arg_value>bob</arg_value>',
              '<arg_key>amount</arg_key><arg_value>5</arg_value></tool_call>',
            ],
          },
          { text: 'Done.' },
        ]),
      }).run('Pay bob'),
    );

    expect(ofType(events, 'tool_use')[0]?.input).toEqual({ to: 'bob', amount: 5 });
    expect(paid).toEqual([{ to: 'bob', amount: 5 }]);
  });
});
