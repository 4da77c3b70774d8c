import type { Message } from '../../../src/index.js';

const PROSE =
  'Here is what I found: the forecast says light rain in the morning, clearing by noon, with highs around 14 °C. ' +
  'Winds from the south-west at 20 km/h. **Tomorrow** looks drier — see the table below.';

/**
 * `count` messages of a realistic conversation, starting at `offset`: repeating rounds of a
 * user prompt, an assistant tool call, its result and an assistant answer, so history
 * repair on load finds nothing dangling.
 */
export function benchMessages(count: number, offset = 0): Message[] {
  const messages: Message[] = [];
  for (let index = offset; index < offset + count; index++) {
    const round = Math.floor(index / 4);
    const id = `call_${round}`;
    switch (index % 4) {
      case 0:
        messages.push({
          role: 'user',
          content: `Question ${round}: what is the weather in city ${round}?`,
        });
        break;
      case 1:
        messages.push({
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id,
              type: 'function',
              function: {
                name: 'get_weather',
                arguments: JSON.stringify({ city: `city ${round}` }),
              },
            },
          ],
        });
        break;
      case 2:
        messages.push({
          role: 'tool',
          tool_call_id: id,
          content: JSON.stringify({ temperature: 14, sky: 'rain', round }),
        });
        break;
      default:
        messages.push({ role: 'assistant', content: `${PROSE} (answer ${round})` });
    }
  }
  return messages;
}
