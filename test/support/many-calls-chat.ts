import { z } from 'zod';
import '../../components/index.js';
import { Client, scriptedBackend, tool } from '../../src/index.js';

/** What {@link manyCallsChat} built: the element (not yet on the page), its calls, what ran. */
export interface ManyCallsChat {
  chat: HTMLElementTagNameMap['agent-chat'];
  /** The calls of the scripted answer, `c0`… in order, each `step({ n })`. */
  toolCalls: { name: 'step'; input: { n: number }; id: string }[];
  /** The `n` of each call that ran, in the order they ran. */
  ran: number[];
}

/**
 * Issue 27 item 6's page: an `<agent-chat>` 700 px high whose scripted model answers one prompt
 * with `count` calls of a tool `step` that answers at once (`result(n)`, default `step n`),
 * then with "All done.". `limit` is the Client's `maxToolCallsPerResponse` (its default when
 * left out). Shared by the bench (bench/browser/chat/tool-calls.ts) and the browser tests.
 *
 * @example
 * const { chat, ran } = manyCallsChat({ count: 200, limit: 200 });
 * document.body.append(chat);
 * await chat.send('Take 200 steps');
 */
export function manyCallsChat(options: {
  count: number;
  limit?: number;
  result?: (n: number) => string;
}): ManyCallsChat {
  const ran: number[] = [];
  const result = options.result ?? ((n: number) => `step ${n}`);
  const step = tool({
    name: 'step',
    description: 'One step',
    input: z.object({ n: z.number() }),
    execute: ({ n }) => (ran.push(n), result(n)),
  });
  const toolCalls = Array.from({ length: options.count }, (_, n) => ({
    name: 'step' as const,
    input: { n },
    id: `c${n}`,
  }));
  const chat = document.createElement('agent-chat');
  chat.style.height = '700px';
  chat.client = new Client({
    model: 'scripted',
    backend: scriptedBackend([{ toolCalls }, { text: 'All done.' }]),
    tools: [step],
    autoExecuteTools: true,
    ...(options.limit === undefined ? {} : { maxToolCallsPerResponse: options.limit }),
  });
  return { chat, toolCalls, ran };
}
