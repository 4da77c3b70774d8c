import { describe, expect, it } from 'vitest';
import { STREAM_DONE, chunk, collect, reasoning, text } from './collect.js';

describe('aggregateStream: text deltas', () => {
  it('yields each content delta once and ignores a role-only first chunk and a finish on delta {}', async () => {
    const { events, turn } = await collect([
      chunk({ role: 'assistant' }),
      chunk({ content: 'Hel' }),
      chunk({ content: 'lo' }),
      chunk({}, 'stop'),
      STREAM_DONE,
    ]);

    expect(events).toEqual([text('Hel'), text('lo')]);
    expect(turn).toEqual({
      text: 'Hello',
      reasoning: '',
      toolCalls: [],
      invalidToolCalls: [],
      finishReason: 'stop',
      rawFinishReason: 'stop',
      usage: undefined,
    });
  });

  it('treats content null, missing and "" as no text', async () => {
    const { events, turn } = await collect([
      chunk({ role: 'assistant', content: null }),
      chunk({ content: '' }),
      chunk({}),
      chunk({ content: 'A' }),
      chunk({ content: null }, 'stop'),
      STREAM_DONE,
    ]);

    expect(events).toEqual([text('A')]);
    expect(turn?.text).toBe('A');
  });

  it('reads older Ollama chunks that repeat role and content "" on every chunk', async () => {
    // Ollama 0.1.x /v1: {"role":"assistant","content":""} on every chunk, finish with content "".
    const { events, turn } = await collect([
      chunk({ role: 'assistant', content: '' }),
      chunk({ role: 'assistant', content: 'Hi' }),
      chunk({ role: 'assistant', content: ' there' }),
      chunk({ role: 'assistant', content: '' }, 'stop'),
      STREAM_DONE,
    ]);

    expect(events).toEqual([text('Hi'), text(' there')]);
    expect(turn?.text).toBe('Hi there');
    expect(turn?.finishReason).toBe('stop');
  });

  it('reads content sent as an array of parts: text parts are text, thinking parts reasoning (Magistral)', async () => {
    const { events, turn } = await collect([
      chunk({
        role: 'assistant',
        content: [{ type: 'thinking', thinking: [{ type: 'text', text: 'Multiply' }] }],
      }),
      chunk({
        content: [
          { type: 'thinking', thinking: [{ type: 'text', text: ' 17 by 23.' }], closed: true },
          { type: 'text', text: '3' },
        ],
      }),
      chunk({ content: '91' }, 'stop'),
      STREAM_DONE,
    ]);

    expect(events).toEqual([reasoning('Multiply'), reasoning(' 17 by 23.'), text('3'), text('91')]);
    expect(turn?.text).toBe('391');
    expect(turn?.reasoning).toBe('Multiply 17 by 23.');
  });

  it('keeps the order of text and reasoning inside one delta and tolerates odd parts', async () => {
    const { events } = await collect([
      chunk({
        content: [
          { type: 'text', text: 'a' },
          { type: 'thinking', thinking: 'b' },
          { type: 'image_url', image_url: 'x' },
          null,
          { type: 'text', text: 7 },
          { type: 'text', text: 'c' },
        ],
      }),
      chunk({}, 'stop'),
      STREAM_DONE,
    ]);

    expect(events).toEqual([text('a'), reasoning('b'), text('c')]);
  });
});
