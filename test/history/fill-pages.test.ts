import { describe, expect, test } from 'vitest';
import {
  PAGE_CHARACTERS,
  PAGE_MESSAGES,
  fillPages,
  messageSize,
} from '../../src/history/fill-pages.js';
import { assistant, callsTools, user } from './fixtures.js';

const numbered = (count: number, from = 0) =>
  Array.from({ length: count }, (_, index) => user(`m${from + index}`));

describe('fillPages', () => {
  test('fills the last page up to PAGE_MESSAGES, then starts new pages', () => {
    const last = numbered(PAGE_MESSAGES - 2);
    const pages = fillPages(last, numbered(PAGE_MESSAGES + 5, PAGE_MESSAGES - 2));
    expect(pages.map((page) => page.length)).toEqual([PAGE_MESSAGES, PAGE_MESSAGES, 3]);
    expect(pages.flat()).toEqual(numbered(2 * PAGE_MESSAGES + 3));
  });

  test('leaves a full last page unchanged', () => {
    const last = numbered(PAGE_MESSAGES);
    const pages = fillPages(last, [user('next')]);
    expect(pages).toEqual([last, [user('next')]]);
  });

  test('a page with PAGE_CHARACTERS of text takes no more messages; one huge message has a page', () => {
    const half = 'x'.repeat(PAGE_CHARACTERS / 2);
    const pages = fillPages(
      [user(half)],
      [assistant(half), user('small'), user('y'.repeat(PAGE_CHARACTERS * 2))],
    );
    expect(pages.map((page) => page.length)).toEqual([2, 1, 1]);
  });

  test('starting from no page gives pages of the messages only', () => {
    expect(fillPages([], numbered(3))).toEqual([numbered(3)]);
  });
});

describe('messageSize', () => {
  test('counts content and tool call text', () => {
    expect(messageSize(user('hello'))).toBe(5);
    const call = callsTools('ab'); // id 'ab', name 'tool_ab', arguments '{}'
    expect(messageSize(call)).toBe(2 + 7 + 2);
  });
});
