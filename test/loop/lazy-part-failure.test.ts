import { afterEach, describe, expect, it, vi } from 'vitest';
import { isAgentError } from '../../src/errors/agent-error.js';
import { scriptedBackend } from '../../src/backend/scripted-backend.js';

// The stream reader loads with the first model call. A page whose server went away (or was
// redeployed with other chunk names) cannot load it: the call must fail as a NETWORK_ERROR that
// says what happened, with history consistent, and the next call must try the load again.
describe('a lazy part of the runtime that cannot load', () => {
  afterEach(() => {
    vi.doUnmock('../../src/stream/aggregate-stream.js');
    vi.resetModules();
  });

  it('fails the model call as NETWORK_ERROR naming the part, and the next call loads it again', async () => {
    vi.resetModules();
    let failLoad = true;
    vi.doMock('../../src/stream/aggregate-stream.js', async (importOriginal) => {
      if (failLoad)
        throw new TypeError('Failed to fetch dynamically imported module: aggregate-stream.js');
      return importOriginal();
    });
    const { Client } = await import('../../src/loop/client.js');
    const client = new Client({
      model: 'm',
      backend: scriptedBackend([{ text: 'first' }, { text: 'second' }]),
    });

    let thrown: unknown;
    try {
      for await (const _event of client.run('Hello')) void _event;
    } catch (error) {
      thrown = error;
    }
    expect(isAgentError(thrown, 'NETWORK_ERROR')).toBe(true);
    // (vitest wraps the factory's error in its own message; the browser's TypeError is the cause)
    expect((thrown as Error).message).toMatch(
      /^Could not load the stream reader of open-agent: .+ Reload the page/,
    );
    expect((thrown as Error).cause).toBeInstanceOf(Error);
    expect(client.history).toEqual([{ role: 'user', content: 'Hello' }]);

    failLoad = false;
    vi.resetModules(); // a fresh module registry, as the browser retries a failed module fetch
    const texts: string[] = [];
    for await (const event of client.run('Again'))
      if (event.type === 'text') texts.push(event.text);
    // The scripted backend hands out a turn when the call is made, before the reader is needed:
    // the failed call used the first (the fetch transport starts no request until it is read).
    expect(texts.join('')).toBe('second');
    expect(client.history.at(-1)).toEqual({ role: 'assistant', content: 'second' });
  });
});
