import { describe, expect, it } from 'vitest';
import { scriptedBackend } from '../../src/backend/scripted-backend.js';
import { Client } from '../../src/loop/client.js';
import type { ToolUseBlock } from '../../src/types/events.js';
import { collect as collectEvents } from '../support/collect.js';
import { add } from '../loop/fixtures.js';
import { collect, reasoning, text, textStream } from './collect.js';

// gpt-oss writes OpenAI's harmony format; some servers leave it in `content`.

const generateId = () => 'gen000001';

describe('aggregateStream: harmony markup in content (gpt-oss)', () => {
  it('splits the analysis channel into reasoning and the final channel into text', async () => {
    const { events, turn } = await collect(
      textStream([
        '<|channel|>analysis<|message|>Simple sum.<|end|>',
        '<|start|>assistant<|channel|>final<|message|>It is ',
        '4.<|return|>',
      ]),
    );

    expect(events).toEqual([reasoning('Simple sum.'), text('It is '), text('4.')]);
    expect(turn).toMatchObject({ text: 'It is 4.', reasoning: 'Simple sum.' });
  });

  it('reads a message to functions.NAME as a tool call, its body as the arguments', async () => {
    const { events, turn } = await collect(
      textStream([
        '<|channel|>commentary to=functions.add <|constrain|>json<|message|>{"a":2,',
        '"b":3}<|call|>',
      ]),
      { toolNames: new Set(['add']), generateId },
    );

    const call: ToolUseBlock = {
      type: 'tool_use',
      id: 'gen000001',
      name: 'add',
      input: { a: 2, b: 3 },
      recoveredFromText: true,
    };
    expect(events).toEqual([call]);
    expect(turn).toMatchObject({ text: '', toolCalls: [call], finishReason: 'tool_calls' });
  });

  it('leaves text that only looks like a token alone, including a trailing "<"', async () => {
    const { events, turn } = await collect(textStream(['a <|b| and 1 <', '2 <|', 'x|>']));

    expect(turn?.text).toBe('a <|b| and 1 <2 <|x|>');
    expect(events.every((event) => event.type === 'text')).toBe(true);
  });

  it('sends back only the final answer, so the gpt-oss template does not refuse the next request', async () => {
    const backend = scriptedBackend([
      {
        text: [
          '<|channel|>analysis<|message|>Add them.<|end|><|start|>assistant<|channel|>commentary to=functions.add <|constrain|>json<|message|>{"a":2,"b":3}<|call|>',
        ],
      },
      {
        text: [
          '<|channel|>analysis<|message|>Got 5.<|end|><|start|>assistant<|channel|>final<|message|>2 + 3 = 5.',
        ],
      },
    ]);
    const client = new Client({
      model: 'gpt-oss-20b',
      backend,
      tools: [add],
      autoExecuteTools: true,
    });

    await collectEvents(client.run('2 + 3?'));

    expect(JSON.stringify(backend.requests)).not.toContain('<|channel|>');
    expect(client.history.at(-1)).toEqual({
      role: 'assistant',
      content: '2 + 3 = 5.',
      reasoning: 'Got 5.',
    });
    expect(client.history.at(-2)).toMatchObject({ role: 'tool', content: '5' });
  });
});
