import { isRecord } from '../../types/is-record.js';
import { ConstrainedAnswerReader } from './constrained-answer-reader.js';

/**
 * An engine's chunks for a tools-constrained request (see `constrainTools`) as standard
 * chunks: the `answer` string streams as `content`, and `tool_calls` becomes one chunk of
 * calls with `finish_reason: 'tool_calls'` at the end. Other fields (usage, reasoning) pass
 * through; the finish reason comes last, on a chunk of its own.
 */
export async function* constrainedChunks(chunks: AsyncIterable<unknown>): AsyncGenerator<unknown> {
  const reader = new ConstrainedAnswerReader();
  let finish: unknown = null;
  for await (const chunk of chunks) {
    const choices =
      isRecord(chunk) && Array.isArray(chunk.choices) ? (chunk.choices as unknown[]) : undefined;
    const choice: unknown = choices?.[0];
    if (!isRecord(chunk) || !isRecord(choice) || !isRecord(choice.delta)) {
      yield chunk;
      continue;
    }
    if (choice.finish_reason !== null && choice.finish_reason !== undefined)
      finish = choice.finish_reason;
    const { content, ...delta } = choice.delta;
    const text = typeof content === 'string' ? reader.push(content) : '';
    yield {
      ...chunk,
      choices: [
        {
          ...choice,
          delta: text === '' ? delta : { ...delta, content: text },
          finish_reason: null,
        },
      ],
    };
  }
  const calls = reader.end();
  yield {
    object: 'chat.completion.chunk',
    choices: [
      {
        index: 0,
        delta:
          calls.length === 0
            ? {}
            : {
                tool_calls: calls.map((call, index) => ({
                  index,
                  type: 'function',
                  function: { name: call.name, arguments: call.arguments },
                })),
              },
        finish_reason:
          calls.length > 0 ? 'tool_calls' : typeof finish === 'string' ? finish : 'stop',
      },
    ],
  };
}
