import type { TaggedDialect } from './dialects/text-tool-call-dialect.js';
import { matchTag } from './match-tag.js';

/** A plain code fence: markup inside one is shown, not run. */
export const FENCE = '```';

/** A marker the markup parser looks for: a tagged dialect's opener, or a code fence. */
export interface Marker {
  text: string;
  /** The dialect it opens; none for a plain code fence. */
  dialect: TaggedDialect | undefined;
}

/** The markers of one list of dialects, ready for {@link findMarker} and the one-pass check of
 * a piece of prose (`ToolCallMarkupParser.push`). */
export interface Markers {
  /** Dialect markers and the plain fence, longest first (`\`\`\`tool_code` before `\`\`\``). */
  list: readonly Marker[];
  firstChars: readonly string[];
  /** 1 at the code of each ASCII first character, for the one-pass check of a piece of prose. */
  firstCodes: Uint8Array;
}

/** What {@link findMarker} found. */
export type Found =
  | { kind: 'partial'; index: number }
  | { kind: 'marker'; index: number; marker: Marker }
  /** One or two backticks: inline code starts (or ends). */
  | { kind: 'tick'; index: number; length: number };

/** The markers of each dialect list (the same list every response): sorted once, not per response. */
const markersOf = new WeakMap<readonly TaggedDialect[], Markers>();

const FENCE_ONLY: Markers = {
  list: [{ text: FENCE, dialect: undefined }],
  firstChars: ['`'],
  firstCodes: new Uint8Array(0x80),
};

/**
 * The markers of `tagged` and the plain fence, made once per list.
 *
 * @example
 * const { list } = markersFor([hermesDialect]); // ['<tool_call>', '```'] as markers
 */
export function markersFor(tagged: readonly TaggedDialect[]): Markers {
  let markers = markersOf.get(tagged);
  if (markers !== undefined) return markers;
  const list = [
    { text: FENCE, dialect: undefined },
    ...tagged.flatMap((dialect) => dialect.openers.map((text) => ({ text, dialect }))),
  ].sort((a, b) => b.text.length - a.text.length);
  const firstChars = [...new Set(list.map((marker) => marker.text[0] ?? ''))];
  // A marker starting with a character outside ASCII would escape the one-pass check.
  const firstCodes = new Uint8Array(0x80);
  for (const char of firstChars) {
    const code = char.charCodeAt(0);
    if (code >= 0x80) throw new RangeError(`a marker starts with a non-ASCII character: ${char}`);
    firstCodes[code] = 1;
  }
  markers = { list, firstChars, firstCodes };
  markersOf.set(tagged, markers);
  return markers;
}

/**
 * The first marker of `markers` in `text` — whole, or cut off by the end of `text`
 * (`partial`) — or the backticks of inline code, or `undefined`. Inside a fence only the
 * closing fence counts.
 *
 * @example
 * findMarker('Sure.<tool_c', markersFor([hermesDialect]), false); // { kind: 'partial', index: 5 }
 */
export function findMarker(text: string, markers: Markers, inFence: boolean): Found | undefined {
  const { firstChars, list } = inFence ? FENCE_ONLY : markers;
  let from = 0;
  for (;;) {
    let index = -1;
    for (const char of firstChars) {
      const at = text.indexOf(char, from);
      if (at !== -1 && (index === -1 || at < index)) index = at;
    }
    if (index === -1) return undefined;
    let partial = false;
    for (const marker of list) {
      const match = matchTag(text, index, marker.text);
      // Longest first: a longer marker that may still come wins over a shorter whole one.
      if (match === 'partial') partial = true;
      else if (match === 'full')
        return partial ? { kind: 'partial', index } : { kind: 'marker', index, marker };
    }
    if (partial) return { kind: 'partial', index };
    if (!inFence && text[index] === '`') {
      // One or two backticks (three are a fence): inline code, where markup is shown.
      const length = text[index + 1] === '`' ? 2 : 1;
      return { kind: 'tick', index, length };
    }
    from = index + 1;
  }
}
