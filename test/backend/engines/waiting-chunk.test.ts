import { describe, expect, it } from 'vitest';
import { Client } from '../../../src/loop/client.js';
import { WAITING_CHUNK, type ChatBackend } from '../../../src/types/chat-request.js';
import { collect, types } from '../../support/collect.js';

// The ChatBackend contract: a backend reports a wait (an engine downloading its model) by
// yielding waiting chunks before the first token; the loop yields them as `waiting` events.
const loadingBackend: ChatBackend = {
  chat: {
    completions: {
      create: () => chunks(),
    },
  },
};

async function* chunks(): AsyncGenerator<unknown> {
  yield { object: WAITING_CHUNK, phase: 'loading_model', elapsedMs: 5, progress: 0.5, model: 'm' };
  yield { object: WAITING_CHUNK, phase: 'loading_model', elapsedMs: 9, progress: 1, model: 'm' };
  await Promise.resolve();
  yield { choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: 'stop' }] };
}

describe('waiting chunks from a backend', () => {
  it('become waiting events before the text, and never enter the answer', async () => {
    const client = new Client({ model: 'm', backend: loadingBackend });
    const events = await collect(client.run('Hello'));
    expect(types(events)).toEqual(['waiting', 'waiting', 'text', 'step_end', 'done']);
    expect(events[0]).toEqual({
      type: 'waiting',
      phase: 'loading_model',
      elapsedMs: 5,
      progress: 0.5,
      model: 'm',
    });
    expect(client.history.at(-1)).toEqual({ role: 'assistant', content: 'Hi' });
  });
});
