import { describe, expect, it } from 'vitest';
import { scriptedBackend } from '../../src/backend/scripted-backend.js';
import { AgentError } from '../../src/errors/agent-error.js';
import { Client } from '../../src/loop/client.js';
import { query } from '../../src/loop/query.js';
import { collect } from '../support/collect.js';

// LM Studio / llama.cpp serving Qwen3-Thinking with reasoning left in content: the template
// put `<think>` in the prompt, so the output starts in reasoning and only `</think>` arrives.
const startsInReasoning = { text: ['Let me', ' think.</think>', '\n\nIt is 4.'] };

describe('onTextWasReasoning', () => {
  it('is told the text already streamed once a lone </think> shows it was reasoning', async () => {
    const moved: string[] = [];
    const client = new Client({
      model: 'm',
      backend: scriptedBackend([startsInReasoning]),
      onTextWasReasoning: (text) => moved.push(text),
    });

    const events = await collect(client.run('2 + 2?'));

    expect(moved).toEqual(['Let me']);
    expect(events.slice(0, 3)).toEqual([
      { type: 'text', text: 'Let me' },
      { type: 'reasoning', text: ' think.' },
      { type: 'text', text: 'It is 4.' },
    ]);
    expect(client.history.at(-1)).toEqual({
      role: 'assistant',
      content: 'It is 4.',
      reasoning: 'Let me think.',
    });
  });

  it('reaches query() too, and is not called for a stream with a whole think block', async () => {
    const moved: string[] = [];
    const options = { model: 'm', onTextWasReasoning: (text: string) => moved.push(text) };

    await collect(
      query('2 + 2?', { ...options, backend: scriptedBackend([{ text: ['<think>hm</think>4'] }]) }),
    );
    await collect(query('2 + 2?', { ...options, backend: scriptedBackend([startsInReasoning]) }));

    expect(moved).toEqual(['Let me']);
  });

  it('a throwing callback goes to onError once and the run goes on', async () => {
    const errors: AgentError[] = [];
    const client = new Client({
      model: 'm',
      backend: scriptedBackend([startsInReasoning]),
      onTextWasReasoning: () => {
        throw new Error('view gone');
      },
      onError: (error) => errors.push(error),
    });

    const events = await collect(client.run('2 + 2?'));

    expect(errors.map((error) => [error.code, error.message])).toEqual([
      ['TOOL_FAILED', 'onTextWasReasoning failed: view gone'],
    ]);
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'completed' });
  });

  it('a response that fails after the </think> keeps only the answer text in history, never the reasoning', async () => {
    const client = new Client({
      model: 'm',
      backend: scriptedBackend([
        { ...startsInReasoning, error: new AgentError('HTTP_ERROR', 'upstream gone') },
      ]),
    });

    await expect(collect(client.run('2 + 2?'))).rejects.toMatchObject({ code: 'HTTP_ERROR' });

    expect(client.history.at(-1)).toEqual({ role: 'assistant', content: 'It is 4.' });
  });
});
