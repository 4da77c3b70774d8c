/** The string quote token of Gemma 4's call syntax. */
export const GEMMA4_QUOTE = '<|"|>';

/**
 * Reads Gemma 4's call arguments `{city:<|"|>Paris<|"|>,days:3,at:{lat:4.5}}`: bare keys
 * (nested too; a key is everything up to its colon, spaces included, as llama.cpp's
 * `gemma4-dict-key` reads it), strings wrapped in `<|"|>`, numbers, `true`/`false`/`null` bare, nested
 * `{}` / `[]` (`none` / `nil` also null, as vLLM reads them). A bare word that is none of those is read as a string (the form left when a
 * server strips special tokens, quotes included). `undefined` when the text is not such an
 * object. Checked against vLLM's `gemma4` parser and llama.cpp `common/parsers/gemma4.cpp`.
 */
export function parseGemma4Arguments(text: string): Record<string, unknown> | undefined {
  const reader = { text, index: 0 };
  try {
    const value = readObject(reader);
    space(reader);
    return reader.index === text.length ? value : undefined;
  } catch {
    return undefined;
  }
}

interface Reader {
  text: string;
  index: number;
}

function space(reader: Reader): void {
  while (/\s/.test(reader.text[reader.index] ?? '')) reader.index++;
}

function expect(reader: Reader, char: string): void {
  space(reader);
  if (reader.text[reader.index] !== char) throw new SyntaxError(`expected ${char}`);
  reader.index++;
}

function readObject(reader: Reader): Record<string, unknown> {
  expect(reader, '{');
  const object: Record<string, unknown> = {};
  for (;;) {
    space(reader);
    if (reader.text[reader.index] === '}') break;
    const key = reader.text.startsWith(GEMMA4_QUOTE, reader.index)
      ? readQuoted(reader)
      : readBare(reader, /[^:,{}[\]]/).trimEnd();
    if (key === '') throw new SyntaxError('expected a key');
    expect(reader, ':');
    object[key] = readValue(reader);
    space(reader);
    if (reader.text[reader.index] === ',') reader.index++;
    else if (reader.text[reader.index] !== '}') throw new SyntaxError('expected , or }');
  }
  reader.index++;
  return object;
}

function readValue(reader: Reader): unknown {
  space(reader);
  const char = reader.text[reader.index];
  if (reader.text.startsWith(GEMMA4_QUOTE, reader.index)) return readQuoted(reader);
  if (char === '{') return readObject(reader);
  if (char === '[') {
    reader.index++;
    const values: unknown[] = [];
    for (;;) {
      space(reader);
      if (reader.text[reader.index] === ']') break;
      values.push(readValue(reader));
      space(reader);
      if (reader.text[reader.index] === ',') reader.index++;
      else if (reader.text[reader.index] !== ']') throw new SyntaxError('expected , or ]');
    }
    reader.index++;
    return values;
  }
  const word = readBare(reader, /[^,{}[\]]/).trim();
  if (word === 'true') return true;
  if (word === 'false') return false;
  // vLLM's gemma4 parser also reads Python's and other spellings of null.
  if (word === 'null' || /^(?:none|nil)$/i.test(word)) return null;
  if (/^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/.test(word)) return Number(word);
  if (word === '') throw new SyntaxError('expected a value');
  return word;
}

function readQuoted(reader: Reader): string {
  const start = reader.index + GEMMA4_QUOTE.length;
  const end = reader.text.indexOf(GEMMA4_QUOTE, start);
  if (end === -1) throw new SyntaxError('unclosed string');
  reader.index = end + GEMMA4_QUOTE.length;
  return reader.text.slice(start, end);
}

function readBare(reader: Reader, allowed: RegExp): string {
  const start = reader.index;
  while (reader.index < reader.text.length && allowed.test(reader.text[reader.index] ?? ''))
    reader.index++;
  return reader.text.slice(start, reader.index);
}
