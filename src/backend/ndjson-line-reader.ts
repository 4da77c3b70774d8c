/** One line of an NDJSON body; `terminated` is false for a last line the body cut off without `\n`. */
export interface NDJSONLine {
  text: string;
  terminated: boolean;
}

/**
 * Splits decoded text pieces into lines (LF or CRLF), skipping blank ones. The project's
 * only NDJSON reader (Ollama's native `/api/chat` streams one JSON object per line).
 */
export async function* readNDJSONLines(texts: AsyncIterable<string>): AsyncGenerator<NDJSONLine> {
  let buffer = '';
  for await (const text of texts) {
    buffer += text;
    let newline = buffer.indexOf('\n');
    while (newline !== -1) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (line !== '') yield { text: line, terminated: true };
      newline = buffer.indexOf('\n');
    }
  }
  const last = buffer.trim();
  if (last !== '') yield { text: last, terminated: false };
}
