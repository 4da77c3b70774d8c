/**
 * Loads the recorded server streams kept in test/fixtures/recorded-streams (copies of
 * shared/recorded-streams, so the repository is self-contained). See that folder's
 * README for how `expect` reads each stream.
 */
import { readFileSync, readdirSync } from 'node:fs';

/** What a stream should aggregate to (snake_case usage, as recorded). */
export interface RecordedExpectation {
  text: string;
  reasoning: string;
  toolCalls: {
    id?: string;
    name: string;
    arguments: Record<string, unknown>;
    rawArguments?: string;
  }[];
  finishReason: string;
  rawFinishReason: string | null;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number } | null;
  /** Error codes the stream must end with (at most one). */
  errors: string[];
  /** Calls that must be reported as `tool_use_error`, not run (local-server fixtures). */
  invalidToolCalls?: { name: string; toolUseId?: string; code: string; rawData?: string }[];
  /**
   * The text the `text` events carry, when it differs from the turn's: a stream that
   * starts in reasoning is only known to after its `</think>` (local-server fixtures).
   */
  eventText?: string;
}

/** One recorded (or hand-written) stream and what it must aggregate to. */
export interface RecordedStream {
  /** File name without `.json`. */
  name: string;
  server: string;
  fact: string;
  /** `model`: the model asked for, passed to the aggregator (its family's forms are read first). */
  request: { stream?: boolean; tools?: string[]; model?: string };
  /** The exact SSE body. */
  sse: string;
  expect: RecordedExpectation;
  notes?: string;
}

const folder = new URL('../fixtures/recorded-streams/', import.meta.url);

/** Every `*.json` in test/fixtures/recorded-streams, sorted by name. */
export function loadRecordedStreams(): RecordedStream[] {
  return readdirSync(folder)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => {
      const parsed = JSON.parse(readFileSync(new URL(file, folder), 'utf8')) as Omit<
        RecordedStream,
        'name'
      >; // our own fixture files
      return { ...parsed, name: file.slice(0, -'.json'.length) };
    });
}
