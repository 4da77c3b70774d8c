import { memoryHistory } from '../../src/history/memory-history.js';
import type { HistoryStore } from '../../src/history/history-store.js';
import type { Message } from '../../src/types/message.js';
import { seededRandom } from '../support/seeded-random.js';

const WORDS = (
  'the a model window server token prompt answer question local browser agent tool result ' +
  'weather city river mountain garden kitchen recipe butter flour sugar engine memory cache ' +
  'network request stream summary history search index page script worker thread queue ' +
  'north south east west morning evening summer winter number letter'
).split(' ');

/** Where the planted phrases are, for the asserts. */
export const PLANTED = {
  accented: {
    conversation: 537,
    message: 42,
    text: 'We baked a Crème Brûlée with Ångström precision.',
  },
  rare: { conversation: 12, message: 97, text: 'The zyzzyva beetle lives in the garden.' },
};

/** `conversations` × `messages` of generated text (about 20 words each), with the {@link PLANTED} phrases. */
export async function generatedStore(
  conversations: number,
  messages: number,
  store: HistoryStore = memoryHistory(),
): Promise<HistoryStore> {
  const next = seededRandom(42);
  for (let conversation = 0; conversation < conversations; conversation += 1) {
    const batch: Message[] = [];
    for (let index = 0; index < messages; index += 1) {
      const planted = Object.values(PLANTED).find(
        (entry) => entry.conversation === conversation && entry.message === index,
      );
      const words = Array.from({ length: 20 }, () => WORDS[Math.floor(next() * WORDS.length)]);
      const text = planted?.text ?? `${words.join(' ')}.`;
      batch.push(
        index % 2 === 0 ? { role: 'user', content: text } : { role: 'assistant', content: text },
      );
    }
    await store.append(`c${conversation}`, batch);
  }
  return store;
}
