import { isRecord } from '../../types/is-record.js';

/** A call read from a constrained answer: the tool's name and its arguments as JSON text. */
export interface ConstrainedCall {
  name: string;
  arguments: string;
}

const ANSWER_START = /^\s*\{\s*"answer"\s*:\s*"/;
/** A prefix that can still become `{"answer":"` (the engine streams a few characters at a time). */
const ANSWER_PREFIX = /^\s*(\{\s*("(a(n(s(w(e(r("\s*(:\s*)?)?)?)?)?)?)?)?)?)?$/;
const ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/**
 * Reads the JSON a constrained engine writes (see `constrainTools`) as it streams:
 * `{"answer": "…"}` comes out as text while it is written — the string decoded, escapes and
 * all — and `{"tool_calls": […]}` as calls once the JSON is complete.
 *
 * @example
 * const reader = new ConstrainedAnswerReader();
 * reader.push('{"answer":"Hel'); // 'Hel'
 * reader.push('lo\\n"}');         // 'lo\n'
 * reader.end();                    // [] — no calls
 */
export class ConstrainedAnswerReader {
  #raw = '';
  #state: 'start' | 'answer' | 'after' | 'calls' = 'start';
  /** Where the undecoded part of the answer string starts in `#raw`. */
  #position = 0;

  /** Adds the next piece of output; returns the answer text it completes (maybe ''). */
  push(piece: string): string {
    this.#raw += piece;
    if (this.#state === 'start') {
      const start = ANSWER_START.exec(this.#raw);
      if (start) {
        this.#state = 'answer';
        this.#position = start[0].length;
      } else if (!ANSWER_PREFIX.test(this.#raw)) this.#state = 'calls';
    }
    return this.#state === 'answer' ? this.#decode() : '';
  }

  /**
   * The calls, once the output is complete: `[]` for an answer, or when the output is not the
   * JSON of calls (cut off by `max_tokens`, say).
   */
  end(): ConstrainedCall[] {
    if (this.#state !== 'calls') return [];
    let value: unknown;
    try {
      value = JSON.parse(this.#raw);
    } catch {
      return [];
    }
    if (!isRecord(value) || !Array.isArray(value.tool_calls)) return [];
    return (value.tool_calls as unknown[]).flatMap((call) =>
      isRecord(call) && typeof call.name === 'string'
        ? [
            {
              name: call.name,
              arguments: JSON.stringify(isRecord(call.arguments) ? call.arguments : {}),
            },
          ]
        : [],
    );
  }

  /** Decodes the answer string from `#position` as far as complete escapes allow. */
  #decode(): string {
    const raw = this.#raw;
    let text = '';
    let index = this.#position;
    while (index < raw.length) {
      const char = raw.charAt(index);
      if (char === '"') {
        this.#state = 'after';
        index++;
        break;
      }
      if (char !== '\\') {
        text += char;
        index++;
        continue;
      }
      const kind = raw.charAt(index + 1);
      if (kind === '') break;
      if (kind === 'u') {
        const hex = raw.slice(index + 2, index + 6);
        if (hex.length < 4) break;
        text += String.fromCharCode(Number.parseInt(hex, 16));
        index += 6;
        continue;
      }
      text += ESCAPES[kind] ?? kind;
      index += 2;
    }
    this.#position = index;
    return text;
  }
}
