/**
 * The three `Client.run` scenarios of the `run` bench section, shared by the fake server
 * (what it answers), the loops under test (what they send back) and the checks (what a run
 * must end with). Named as the model the request asks for, so one server serves them all.
 */

/** A scenario: `text-N` deltas of 4 characters, `tool-loop-K` rounds of one call, `parallel-P` calls in one response. */
export type Scenario =
  | { kind: 'text'; deltas: number }
  | { kind: 'tool-loop'; rounds: number }
  | { kind: 'parallel'; calls: number };

/** The 4-character pieces a text answer cycles through: multi-byte UTF-8 and JSON escapes, so a wrong split shows. */
export const TEXT_PIECES: readonly string[] = ['Hé ü', ' → "', 'q"\n ', 'ab\\c', ' ¿→é'];

/** `text-20000`, `tool-loop-50`, `parallel-20`. */
export function scenarioName(scenario: Scenario): string {
  switch (scenario.kind) {
    case 'text':
      return `text-${scenario.deltas}`;
    case 'tool-loop':
      return `tool-loop-${scenario.rounds}`;
    case 'parallel':
      return `parallel-${scenario.calls}`;
  }
}

/** The scenario a name (the request's `model`) stands for, or undefined. */
export function parseScenario(name: string): Scenario | undefined {
  const match = /^(text|tool-loop|parallel)-(\d+)$/.exec(name);
  if (!match) return undefined;
  const size = Number(match[2]);
  if (match[1] === 'text') return { kind: 'text', deltas: size };
  if (match[1] === 'tool-loop') return { kind: 'tool-loop', rounds: size };
  return { kind: 'parallel', calls: size };
}

/** The `add` tool every loop offers, as plain JSON Schema (no zod in the loops under test). */
export const ADD_TOOL = {
  name: 'add',
  description: 'Adds two numbers',
  parameters: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
    additionalProperties: false,
  },
} as const;

/** What `add` does, in every loop. */
export function add(input: unknown): number {
  const { a, b } = input as { a: number; b: number }; // the loops validate or trust the fake server's arguments
  return a + b;
}

/** The text of the `text-N` answer. */
export function textAnswer(deltas: number): string {
  let text = '';
  for (let index = 0; index < deltas; index++)
    text += TEXT_PIECES[index % TEXT_PIECES.length] ?? '';
  return text;
}

/** The short answer that ends the tool scenarios. */
export function closingAnswer(scenario: Scenario): string {
  if (scenario.kind === 'tool-loop')
    return `The sum is ${(scenario.rounds * (scenario.rounds + 1)) / 2}.`;
  if (scenario.kind === 'parallel') return `All ${scenario.calls} sums are in.`;
  return '';
}

/** The tool results a run must have produced, in order, as the numbers `add` returned. */
export function expectedResults(scenario: Scenario): number[] {
  const results: number[] = [];
  if (scenario.kind === 'tool-loop') {
    let previous = 0;
    for (let index = 0; index < scenario.rounds; index++) results.push((previous += index + 1));
  } else if (scenario.kind === 'parallel') {
    for (let index = 0; index < scenario.calls; index++) results.push(2 * index + 1);
  }
  return results;
}

/** What a loop under test saw: the answer's text (as a UI would show it), the tool results, the model calls. */
export interface RunOutcome {
  text: string;
  toolResults: number[];
  modelCalls: number;
}

/** Why `outcome` is wrong for `scenario`, or undefined when it is right. */
export function checkOutcome(scenario: Scenario, outcome: RunOutcome): string | undefined {
  const text = scenario.kind === 'text' ? textAnswer(scenario.deltas) : closingAnswer(scenario);
  if (outcome.text !== text) {
    const at = [...outcome.text].findIndex((char, index) => char !== [...text][index]);
    return `text differs at character ${at} (${outcome.text.length} characters, expected ${text.length})`;
  }
  const results = expectedResults(scenario);
  if (outcome.toolResults.join() !== results.join()) {
    return `tool results ${outcome.toolResults.slice(0, 5).join()}… (${outcome.toolResults.length}), expected ${results.slice(0, 5).join()}… (${results.length})`;
  }
  const calls =
    scenario.kind === 'tool-loop' ? scenario.rounds + 1 : scenario.kind === 'parallel' ? 2 : 1;
  if (outcome.modelCalls !== calls) return `${outcome.modelCalls} model calls, expected ${calls}`;
  return undefined;
}
