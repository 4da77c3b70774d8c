import type { TextToolCall } from './dialects/text-tool-call-dialect.js';

/**
 * What may follow a model's calls without making them quoted text: white space and
 * special tokens (`<|tool_response>`, `<|im_end|>`, `<｜end▁of▁sentence｜>`, `</s>`, Seed-OSS's
 * `<seed:eos>`).
 */
const AFTER_CALLS = /^(?:\s|<\|[^<>]*>|<[^<>]*\|>|<｜[^<>]*｜>|<\/s>|<seed:eos>)*$/;

/**
 * What `text`, read right after a call block, says about the calls: `'quoted'` when prose
 * follows on the same line; `'standing'` once the line ends with none; `'undecided'` while
 * only white space and special tokens came.
 */
export function callsAfter(text: string): 'quoted' | 'standing' | 'undecided' {
  const newline = text.indexOf('\n');
  if (newline !== -1) return AFTER_CALLS.test(text.slice(0, newline)) ? 'standing' : 'quoted';
  // A special token may still be arriving (`<|im_en`).
  return AFTER_CALLS.test(text.replace(/<[^<>\s]*$/, '')) ? 'undecided' : 'quoted';
}

/**
 * Calls read from tagged blocks, not yet reported: a call ends the model's sentence, so
 * markup with prose after it on the same line was quoted ("the page says: <tool_call>…
 * </tool_call> and then…") and is released as text, in place. A new line or the end of the
 * text lets the calls stand.
 */
export interface AwaitedCalls {
  calls: TextToolCall[];
  /** The blocks' markup and what came between and after them, in order. */
  markup: string;
  /** Text after the last block (white space, special tokens): shown once the calls stand. */
  after: string;
}

/**
 * The first non-space character of the line being written decides whether it is a Markdown
 * block quote (`> …`): markup quoted there is shown, never run.
 */
export type LineHead = 'blank' | 'quote' | 'other';

/** The {@link LineHead} after `text` is written on a line whose head was `head`. */
export function lineHeadAfter(head: LineHead, text: string): LineHead {
  // Per shown piece, so no slicing or regular expressions: most pieces are one word.
  const newline = text.lastIndexOf('\n');
  if (newline === -1 && head !== 'blank') return head;
  for (let index = newline + 1; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x20 || code === 0x09 || code === 0x0d) continue;
    return code === 0x3e ? 'quote' : 'other';
  }
  return newline === -1 ? head : 'blank';
}
