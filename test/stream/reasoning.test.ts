import { describe, expect, it } from 'vitest';
import { STREAM_DONE, chunk, collect, reasoning, text, textStream } from './collect.js';

describe('aggregateStream: reasoning', () => {
  it('reads delta.reasoning_content (llama.cpp, older vLLM, LM Studio, text-generation-webui)', async () => {
    const { events, turn } = await collect([
      chunk({ role: 'assistant', content: null, reasoning_content: '' }),
      chunk({ reasoning_content: 'Think', content: null }),
      chunk({ reasoning_content: 'ing.' }),
      chunk({ content: 'Answer', reasoning_content: null }),
      chunk({}, 'stop'),
      STREAM_DONE,
    ]);

    expect(events).toEqual([reasoning('Think'), reasoning('ing.'), text('Answer')]);
    expect(turn).toMatchObject({ text: 'Answer', reasoning: 'Thinking.' });
  });

  it('reads delta.reasoning (Ollama /v1, newer vLLM)', async () => {
    const { events, turn } = await collect([
      chunk({ role: 'assistant', content: '', reasoning: 'Hmm' }),
      chunk({ content: 'Yes' }),
      chunk({ content: '' }, 'stop'),
      STREAM_DONE,
    ]);

    expect(events).toEqual([reasoning('Hmm'), text('Yes')]);
    expect(turn).toMatchObject({ text: 'Yes', reasoning: 'Hmm' });
  });

  it('does not double reasoning a server sends in both fields', async () => {
    const { events } = await collect([
      chunk({ reasoning_content: 'R', reasoning: 'R' }, 'stop'),
      STREAM_DONE,
    ]);

    expect(events).toEqual([reasoning('R')]);
  });

  it('splits <think>…</think> out of content (LM Studio, WebLLM/Qwen3, llama.cpp reasoning-format none)', async () => {
    const { events, turn } = await collect(
      textStream(['<think>\nPlan it.', ' Done.</think>', '\n\nHello <b>', 'x']),
    );

    expect(events).toEqual([
      reasoning('Plan it.'),
      reasoning(' Done.'),
      text('Hello <b>'),
      text('x'),
    ]);
    expect(turn).toMatchObject({ text: 'Hello <b>x', reasoning: 'Plan it. Done.' });
  });

  it('splits tags cut across chunks (`<thi` + `nk>`, `</th` + `ink>`)', async () => {
    const { events, turn } = await collect(
      textStream(['<', 'thi', 'nk>ab', 'c</th', 'ink', '>Hi', ' <', '3']),
    );

    expect(events).toEqual([reasoning('ab'), reasoning('c'), text('Hi'), text(' '), text('<3')]);
    expect(turn).toMatchObject({ text: 'Hi <3', reasoning: 'abc' });
  });

  it('releases a held-back `<thi` that never became a tag when the stream ends', async () => {
    const { events, turn } = await collect(textStream(['<think>r</think>a <thi']));

    expect(events).toEqual([reasoning('r'), text('a '), text('<thi')]);
    expect(turn?.text).toBe('a <thi');
  });

  it('holds a delta with a partial tag before any tag, in case it is a lone </think>', async () => {
    const { events, turn } = await collect(textStream(['So', ' 2+2.</th', 'ink>4']));

    expect(events).toEqual([
      text('So'),
      { type: 'text_was_reasoning', text: 'So' },
      reasoning(' 2+2.'),
      text('4'),
    ]);
    expect(turn).toMatchObject({ text: '4', reasoning: 'So 2+2.' });
  });

  it('moves text into reasoning when the stream starts in reasoning and only a </think> arrives (Qwen3 template)', async () => {
    const { events, turn } = await collect(
      textStream(['Let me', ' think.</think>', '\n\nIt is 4.']),
    );

    // Deltas before the `</think>` could not be known to be reasoning when they came:
    // `text_was_reasoning` says so, in order, so a UI can move them.
    expect(events).toEqual([
      text('Let me'),
      { type: 'text_was_reasoning', text: 'Let me' },
      reasoning(' think.'),
      text('It is 4.'),
    ]);
    expect(turn).toMatchObject({ text: 'It is 4.', reasoning: 'Let me think.' });
  });

  it('keeps a stray </think> after a closed think block as text', async () => {
    const { turn } = await collect(textStream(['<think>a</think>b</think>c']));

    expect(turn).toMatchObject({ text: 'b</think>c', reasoning: 'a' });
  });

  it('never puts an unfinished think block into text', async () => {
    const { events, turn } = await collect(textStream(['<think>still thinking'], 'length'));

    expect(events).toEqual([reasoning('still thinking')]);
    expect(turn).toMatchObject({ text: '', reasoning: 'still thinking', finishReason: 'length' });
  });
});
