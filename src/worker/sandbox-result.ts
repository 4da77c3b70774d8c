import {
  MAX_ERROR_MESSAGE,
  type JavaScriptError,
  type SandboxAnswer,
} from '../tools/javascript-sandbox-protocol.js';
import type { SandboxOutput } from './sandbox-output.js';

/**
 * How a run ended. A value is not copied out of the engine yet: `length` is the length of
 * its JSON text (-1 for `undefined`) and `take(count)` reads its first `count` characters,
 * so only what fits the budget ever leaves the engine.
 */
export type RunOutcome =
  | { ok: true; length: number; take: (count: number) => string }
  | { ok: false; error: JavaScriptError };

/**
 * The answer of one run, within `maxOutputChars` characters of logs plus result JSON. When
 * both do not fit, the result keeps at least half the budget (it is usually the point of
 * the run), logs get the rest; what was cut is said in `truncated`.
 */
export function buildSandboxAnswer(
  outcome: RunOutcome,
  output: SandboxOutput,
  maxOutputChars: number,
): SandboxAnswer {
  const resultLength = outcome.ok ? Math.max(outcome.length, 0) : 0;
  const resultBudget = Math.max(maxOutputChars - output.keptChars, Math.floor(maxOutputChars / 2));
  const resultCut = Math.max(resultLength - resultBudget, 0);
  const logs = trimLogs(output.entries, maxOutputChars - Math.min(resultLength, resultBudget));
  const logsCut = output.omittedChars + logs.cut;
  const answer: SandboxAnswer = { logs: logs.kept };
  if (outcome.ok && outcome.length >= 0) {
    const text = outcome.take(Math.min(outcome.length, resultBudget)).slice(0, resultBudget);
    answer.resultJson = resultCut > 0 ? JSON.stringify(`${text}…`) : text;
  }
  if (!outcome.ok) {
    const { message } = outcome.error;
    answer.error =
      message.length > MAX_ERROR_MESSAGE
        ? { ...outcome.error, message: `${message.slice(0, MAX_ERROR_MESSAGE)}…` }
        : outcome.error;
  }
  if (resultCut > 0 || logsCut > 0) {
    const parts = [
      ...(logsCut > 0 ? [`${logsCut} characters of console output`] : []),
      ...(resultCut > 0
        ? [`${resultCut} characters of the result (shown as a cut JSON string)`]
        : []),
    ];
    answer.truncated = `Output exceeded ${maxOutputChars} characters; omitted ${parts.join(' and ')}.`;
  }
  return answer;
}

function trimLogs(entries: readonly string[], budget: number): { kept: string[]; cut: number } {
  const kept: string[] = [];
  let room = Math.max(budget, 0);
  let cut = 0;
  for (const entry of entries) {
    if (entry.length <= room) {
      kept.push(entry);
      room -= entry.length;
    } else {
      if (room > 0) kept.push(`${entry.slice(0, room)}…`);
      cut += entry.length - room;
      room = 0;
    }
  }
  return { kept, cut };
}
