import { describe, expect, test } from 'vitest';
import { isAgentError } from '../../src/errors/agent-error.js';
import { checkedTitle, titleFromMessages } from '../../src/history/conversation-title.js';
import { storeKit } from '../../src/history/store-kit.js';
import type { Message } from '../../src/types/message.js';
import { assistant, user } from './fixtures.js';

/** The stores hand the kit; so does this test. */
const titleOf = (messages: Message[]) => titleFromMessages(messages, storeKit);

describe('titleFromMessages', () => {
  test('takes the first user message with text, whitespace collapsed', () => {
    expect(titleOf([assistant('hello'), user('   '), user(' Plan\n\ta  trip '), user('x')])).toBe(
      'Plan a trip',
    );
  });

  test('is undefined without a user message', () => {
    expect(titleOf([assistant('hello')])).toBeUndefined();
  });

  test('cuts a long message at a word boundary with an ellipsis, within 60 characters', () => {
    const title = titleOf([user('word '.repeat(40))]) ?? '';
    expect(title).toBe(`${'word '.repeat(11)}word…`);
    expect(Array.from(title).length).toBeLessThanOrEqual(60);
  });

  test('cuts a message without spaces by characters, never inside an emoji', () => {
    const title = titleOf([user('😀'.repeat(100))]) ?? '';
    expect(title).toBe(`${'😀'.repeat(59)}…`);
  });
});

describe('checkedTitle', () => {
  test('trims and collapses whitespace', () => {
    expect(checkedTitle('  My \n chat ')).toBe('My chat');
  });

  test('refuses an empty title', () => {
    let error: unknown;
    try {
      checkedTitle(' \n ');
    } catch (caught) {
      error = caught;
    }
    expect(isAgentError(error, 'VALIDATION_FAILED')).toBe(true);
  });
});
