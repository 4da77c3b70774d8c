/**
 * Deltas of a long markdown answer, as a model streams it (a word or a symbol at a time):
 * headings, paragraphs with emphasis and inline code, lists, tables and fenced code, so
 * the renderer meets every block kind while the text grows.
 */
export const MARKDOWN_DELTAS: readonly string[] = [
  '## ', 'Step', ' by', ' step', '\n\n',
  'First', ', the', ' **loop**', ' calls', ' the', ' model', ' and', ' streams', ' `text`', ' deltas', ' as', ' they', ' arrive', '.',
  ' Each', ' delta', ' is', ' rendered', ' *once*', ', then', ' the', ' block', ' grows', '.', '\n\n',
  '- ', 'parse', ' the', ' chunk', '\n', '- ', 'update', ' the', ' view', '\n', '- ', 'repeat', '\n\n',
  '| ', 'city', ' | ', 'temp', ' |', '\n', '|---|---|', '\n', '| ', 'Oslo', ' | ', '14', ' |', '\n\n',
  '```ts', '\n', 'const', ' x', ' =', ' await', ' run', '(', 'prompt', ');', '\n', '```', '\n\n',
];
