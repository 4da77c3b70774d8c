import { describe, expect, it } from 'vitest';
import { Client } from '../../src/loop/client.js';
import type { AgentEvent } from '../../src/types/events.js';
import { fakeFetch, sseBody, sseResponse } from '../support/fake-fetch.js';

const delta = (content: string) => ({
  choices: [{ index: 0, delta: { content }, finish_reason: null }],
});
const finish = { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] };
const PIECES = ['Hé', ' ü', ' →', ' "q"\n'];

/** The text events of one `Client.run` over a fake server that sends `body` cut at `splitEvery`. */
async function textEvents(splitEvery?: number[]): Promise<string[]> {
  const body = sseBody([...PIECES.map(delta), finish]);
  const fake = fakeFetch([sseResponse(body, splitEvery === undefined ? {} : { splitEvery })]);
  const client = new Client({
    model: 'm',
    baseURL: 'http://127.0.0.1:8080/v1',
    fetch: fake.fetch,
    contextWindow: 32_768,
  });
  const events: AgentEvent[] = [];
  for await (const event of client.run('Hi')) events.push(event);
  expect(client.history.at(-1)).toMatchObject({ role: 'assistant', content: PIECES.join('') });
  return events.flatMap((event) => (event.type === 'text' ? [event.text] : []));
}

/** Byte offsets just after each `\n\n` that ends a frame: one frame per read. */
function frameEnds(): number[] {
  const bytes = new TextEncoder().encode(sseBody([...PIECES.map(delta), finish]));
  const ends: number[] = [];
  for (let index = 1; index < bytes.length; index++)
    if (bytes[index] === 10 && bytes[index - 1] === 10) ends.push(index + 1);
  return ends;
}

describe('Client.run: text events per network read', () => {
  it('gives the deltas that arrive in one read as one text event', async () => {
    expect(await textEvents()).toEqual([PIECES.join('')]);
  });

  it('streams deltas that arrive one per read one event each', async () => {
    expect(await textEvents(frameEnds())).toEqual(PIECES);
  });
});
