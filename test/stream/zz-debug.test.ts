import { it } from 'vitest';
import { ChunkAggregator } from '../../src/stream/chunk-aggregator.js';
import { chunk } from './collect.js';
function run(pieces: readonly string[]) {
  const aggregator = new ChunkAggregator({ toolNames: new Set(['f']), generateId: () => 'id0000001' });
  const events = pieces.flatMap((content) => [...aggregator.push(chunk({ content }))]);
  aggregator.push(chunk({}, 'stop'));
  const end = aggregator.end();
  return { events: [...events, ...end.events], turn: end.turn };
}
it('debug', () => {
  const c1 = '<tool_call><tool_call>{"name":"f","arguments":{"n":1}}</tool_call>';
  console.log(JSON.stringify(run([c1]).turn));
  for (let i = 0; i <= c1.length; i++) { const r = run([c1.slice(0, i), c1.slice(i)]); if (JSON.stringify(r.turn) !== JSON.stringify(run([c1]).turn)) console.log(i, JSON.stringify(r.turn)); }
  const c2 = '<tool_call>{"name":"f","arguments":{"n":1}}</tool_call></ </think>';
  console.log(JSON.stringify(run([c2]).turn));
  for (let i = 0; i <= c2.length; i++) { const r = run([c2.slice(0, i), c2.slice(i)]); if (JSON.stringify(r.turn) !== JSON.stringify(run([c2]).turn)) console.log(i, JSON.stringify(r.turn)); }
});
