import { describe, expect, it } from 'vitest';
import { loadRecordedStreams } from '../support/recorded-streams.js';
import { expectAggregated, throughTransport } from './through-transport.js';

const streams = loadRecordedStreams();

describe('recorded streams from real servers, through transport + aggregator', () => {
  it('has all 16 recorded streams', () => {
    expect(streams).toHaveLength(16);
  });

  describe.each(streams)('$name', (stream) => {
    const toolNames = new Set(stream.request.tools ?? []);

    it('aggregates to its `expect` (body in one piece)', async () => {
      expectAggregated(await throughTransport(stream.sse, { toolNames }), stream.expect);
    });

    it('aggregates to its `expect` (body cut every 7 bytes: mid-line, mid-UTF-8)', async () => {
      expectAggregated(
        await throughTransport(stream.sse, { toolNames, splitEvery: 7 }),
        stream.expect,
      );
    });
  });
});
