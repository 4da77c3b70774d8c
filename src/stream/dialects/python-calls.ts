import type { TextToolCall } from './text-tool-call-dialect.js';

/**
 * Reads Python-style calls with keyword arguments and literal values, as Llama 3.2/4
 * (`[get_weather(city="Paris"), get_time()]`) and Gemma 3 (```` ```tool_code ````) write
 * them: strings, numbers, `True`/`False`/`None`, lists, tuples and dicts. `print(call)`
 * around a call is unwrapped. `undefined` unless the whole text is such calls, each of a
 * registered tool (positional arguments, expressions and unknown names are not calls).
 *
 * @param list `true`: the calls are in `[…]`, comma-separated; `false`: one or more calls
 *   separated by newlines, `;` or commas.
 */
export function parsePythonCalls(
  text: string,
  toolNames: ReadonlySet<string>,
  list: boolean,
): TextToolCall[] | undefined {
  const reader = new PythonReader(text);
  try {
    const calls: TextToolCall[] = [];
    if (list) reader.expect('[');
    for (;;) {
      reader.space();
      if (reader.done() || (list && reader.peek() === ']')) break;
      calls.push(reader.call(toolNames));
      reader.space();
      const next = reader.peek();
      if (next === ',' || next === ';') reader.skip();
      else if (list && next !== ']') return undefined;
    }
    if (list) reader.expect(']');
    reader.space();
    return reader.done() && calls.length > 0 ? calls : undefined;
  } catch {
    return undefined;
  }
}

const IDENTIFIER = /[A-Za-z_][A-Za-z0-9_.-]*/y;
const NUMBER = /-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/y;
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '0': '\0' };

class PythonReader {
  #index = 0;
  readonly #text: string;

  constructor(text: string) {
    this.#text = text;
  }

  done(): boolean {
    return this.#index >= this.#text.length;
  }

  peek(): string | undefined {
    return this.#text[this.#index];
  }

  skip(): void {
    this.#index++;
  }

  space(): void {
    while (/\s/.test(this.peek() ?? '')) this.#index++;
  }

  expect(char: string): void {
    this.space();
    if (this.peek() !== char) throw new SyntaxError(`expected ${char}`);
    this.#index++;
  }

  call(toolNames: ReadonlySet<string>): TextToolCall {
    const name = this.#identifier();
    if (name === 'print') {
      this.expect('(');
      const inner = this.call(toolNames);
      this.expect(')');
      return inner;
    }
    if (!toolNames.has(name)) throw new SyntaxError(`unknown tool ${name}`);
    this.expect('(');
    const args: Record<string, unknown> = {};
    for (;;) {
      this.space();
      if (this.peek() === ')') break;
      const key = this.#identifier();
      this.expect('=');
      args[key] = this.#value();
      this.space();
      if (this.peek() === ',') this.skip();
      else if (this.peek() !== ')') throw new SyntaxError('expected , or )');
    }
    this.#index++;
    return { name, arguments: args };
  }

  #identifier(): string {
    this.space();
    IDENTIFIER.lastIndex = this.#index;
    const match = IDENTIFIER.exec(this.#text);
    if (match === null) throw new SyntaxError('expected a name');
    this.#index = IDENTIFIER.lastIndex;
    return match[0];
  }

  #value(): unknown {
    this.space();
    const char = this.peek();
    if (char === '"' || char === "'") return this.#string(char);
    if (char === '[' || char === '(') return this.#sequence(char === '[' ? ']' : ')');
    if (char === '{') return this.#dict();
    NUMBER.lastIndex = this.#index;
    const number = NUMBER.exec(this.#text);
    if (number !== null) {
      this.#index = NUMBER.lastIndex;
      return Number(number[0]);
    }
    const word = this.#identifier();
    if (word === 'True' || word === 'true') return true;
    if (word === 'False' || word === 'false') return false;
    if (word === 'None' || word === 'null') return null;
    throw new SyntaxError(`not a literal: ${word}`);
  }

  #string(quote: string): string {
    let result = '';
    for (this.#index++; !this.done(); this.#index++) {
      const char = this.peek() ?? '';
      if (char === quote) {
        this.#index++;
        return result;
      }
      if (char === '\\') {
        this.#index++;
        const escaped = this.peek() ?? '';
        result += ESCAPES[escaped] ?? escaped;
      } else {
        result += char;
      }
    }
    throw new SyntaxError('unclosed string');
  }

  #sequence(close: string): unknown[] {
    this.#index++;
    const values: unknown[] = [];
    for (;;) {
      this.space();
      if (this.peek() === close) break;
      values.push(this.#value());
      this.space();
      if (this.peek() === ',') this.skip();
      else if (this.peek() !== close) throw new SyntaxError(`expected , or ${close}`);
    }
    this.#index++;
    return values;
  }

  #dict(): Record<string, unknown> {
    this.#index++;
    const dict: Record<string, unknown> = {};
    for (;;) {
      this.space();
      if (this.peek() === '}') break;
      const key = this.#value();
      if (typeof key !== 'string') throw new SyntaxError('dict keys must be strings');
      this.expect(':');
      dict[key] = this.#value();
      this.space();
      if (this.peek() === ',') this.skip();
      else if (this.peek() !== '}') throw new SyntaxError('expected , or }');
    }
    this.#index++;
    return dict;
  }
}
