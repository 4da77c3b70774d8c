import type { Usage } from '../types/usage.js';
import { isRecord } from '../types/is-record.js';

/**
 * Reads a chunk's `usage` (`prompt_tokens`, `completion_tokens`, `total_tokens`) into a
 * {@link Usage}; `undefined` for `null`, a missing field, or an object without counts.
 * `total_tokens` is taken as sent: xAI counts reasoning tokens only in the total, so it
 * is not always prompt + completion. Extra keys (Groq timings, DeepSeek cache counters)
 * are ignored.
 *
 * @example
 * readUsage({ prompt_tokens: 307, completion_tokens: 26, total_tokens: 560 });
 * // { promptTokens: 307, completionTokens: 26, totalTokens: 560 }
 */
export function readUsage(value: unknown): Usage | undefined {
  if (!isRecord(value)) return undefined;
  const prompt = readCount(value.prompt_tokens);
  const completion = readCount(value.completion_tokens);
  const total = readCount(value.total_tokens);
  if (prompt === undefined && completion === undefined && total === undefined) return undefined;
  const promptTokens = prompt ?? 0;
  const completionTokens = completion ?? 0;
  return { promptTokens, completionTokens, totalTokens: total ?? promptTokens + completionTokens };
}

function readCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}
