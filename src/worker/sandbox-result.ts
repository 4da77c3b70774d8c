import type { JavaScriptResult } from '../tools/javascript-sandbox-protocol.js';
import type { RunOutcome } from './run-javascript.js';
import type { SandboxConsole } from './sandbox-console.js';
import { toJsonSafe } from './to-json-safe.js';

/** Error messages past this length are cut: a thrown 1 MB string must not flood the model. */
const MAX_ERROR_MESSAGE = 2_000;

/**
 * The answer of one run, within `maxOutputChars` characters of logs plus result JSON. When
 * both do not fit, the result keeps at least half the budget (it is usually the point of
 * the run), logs get the rest; what was cut is said in `truncated`.
 */
export function buildSandboxResult(
  outcome: RunOutcome,
  output: SandboxConsole,
  maxOutputChars: number,
): JavaScriptResult {
  const safe = outcome.ok ? toJsonSafe(outcome.value) : undefined;
  const resultText = safe === undefined ? '' : JSON.stringify(safe);
  const resultBudget = Math.max(maxOutputChars - output.keptChars, Math.floor(maxOutputChars / 2));
  const resultCut = Math.max(resultText.length - resultBudget, 0);
  const logs = trimLogs(output.entries, maxOutputChars - Math.min(resultText.length, resultBudget));
  const logsCut = output.omittedChars + logs.cut;
  const result: JavaScriptResult = { logs: logs.kept };
  if (safe !== undefined)
    result.result = resultCut > 0 ? `${resultText.slice(0, resultBudget)}…` : safe;
  if (!outcome.ok) {
    const { message } = outcome.error;
    result.error =
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
    result.truncated = `Output exceeded ${maxOutputChars} characters; omitted ${parts.join(' and ')}.`;
  }
  return result;
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
