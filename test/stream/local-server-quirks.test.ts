import { describe, it } from 'vitest';
import { localServerStreams } from '../fixtures/local-servers/index.js';
import { expectAggregated, throughTransport } from './through-transport.js';

describe('local-server quirks as raw SSE bytes, through transport + aggregator', () => {
  describe.each(localServerStreams)('$name', (stream) => {
    const toolNames = new Set(stream.request.tools ?? []);
    const model = stream.request.model === undefined ? {} : { model: stream.request.model };

    it.each([
      ['in one piece', undefined],
      ['cut every byte', 1],
      ['cut every 5 bytes (mid-line, mid-UTF-8, mid-CRLF)', 5],
      ['cut at 13 and 101 bytes', [13, 101]],
    ])('aggregates to its expectation, %s', async (_label, splitEvery) => {
      expectAggregated(
        await throughTransport(stream.sse, {
          toolNames,
          ...model,
          ...(splitEvery === undefined ? {} : { splitEvery }),
        }),
        stream.expect,
      );
    });
  });
});
