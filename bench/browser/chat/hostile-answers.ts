/** Hostile or huge answers (issue 18), streamed instead of the markdown deltas. */
export type HostileAnswer = 'megabyte-no-blank-line' | 'list-1000-levels' | 'word-100000';

/** The last delta of every bench answer, so the page can see when the whole answer is on screen. */
export const END_MARKER = 'END-OF-STREAM';

/**
 * A hostile or huge answer cut into `deltaSize`-character deltas, the end marker last. Shared by
 * the page (in-memory stream, expected length) and the paced HTTP server (bench/support).
 */
export function hostileDeltas(answer: HostileAnswer, deltaSize: number): string[] {
  let text: string;
  switch (answer) {
    case 'megabyte-no-blank-line':
      text = Array.from(
        { length: 16_500 },
        (_, index) => `line ${index}: a paragraph that never ends, *on* and on`,
      ).join('\n');
      break;
    case 'list-1000-levels':
      text = Array.from(
        { length: 1_000 },
        (_, level) => `${'  '.repeat(level)}- item ${level}`,
      ).join('\n');
      break;
    case 'word-100000':
      text = `before ${'x'.repeat(100_000)} after`;
      break;
  }
  const deltas: string[] = [];
  for (let offset = 0; offset < text.length; offset += deltaSize)
    deltas.push(text.slice(offset, offset + deltaSize));
  deltas.push(`\n\n${END_MARKER}`);
  return deltas;
}

/** The model name that asks the paced server for `answer`, one delta every `intervalMs`. */
export function pacedModel(
  answer: HostileAnswer,
  options: { deltaSize: number; intervalMs: number },
): string {
  return `paced/${answer}/${options.deltaSize}/${options.intervalMs}`;
}

/** The answer a {@link pacedModel} name asks for, or undefined. */
export function parsePacedModel(
  model: string,
): { answer: HostileAnswer; deltaSize: number; intervalMs: number } | undefined {
  const match =
    /^paced\/(megabyte-no-blank-line|list-1000-levels|word-100000)\/(\d+)\/(\d+(?:\.\d+)?)$/.exec(
      model,
    );
  if (!match?.[1] || !match[2] || !match[3]) return undefined;
  // The pattern above admits only the three HostileAnswer names.
  return {
    answer: match[1] as HostileAnswer,
    deltaSize: Number(match[2]),
    intervalMs: Number(match[3]),
  };
}
