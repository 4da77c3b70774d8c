import { hookFailure } from '../errors/agent-error.js';
import type { Hooks, ReportError } from './hooks.js';

/**
 * The tool hooks (`PreToolUse`, `PostToolUse`): run only where tools execute, so they load with
 * tool execution (`tool-execution.ts`), not with every page that sends a prompt.
 */

/** What the `PreToolUse` hooks decided. */
export type ToolDecision =
  | { kind: 'allow'; input: Record<string, unknown> }
  | { kind: 'deny'; reason: string }
  | { kind: 'ask'; input: Record<string, unknown> };

/** Runs `PreToolUse` hooks in order: the first deny or ask wins, rewrites chain. */
export async function runPreToolHooks(
  hooks: Hooks | undefined,
  call: { toolName: string; toolUseId: string; input: Record<string, unknown> },
  report: ReportError,
): Promise<ToolDecision> {
  let input = call.input;
  for (const hook of hooks?.PreToolUse ?? []) {
    try {
      const result = await hook({ ...call, input });
      if (!result) continue;
      if ('continue' in result) return { kind: 'deny', reason: result.reason };
      if ('decision' in result) return { kind: 'ask', input };
      input = result.input;
    } catch (error) {
      const failure = hookFailure('PreToolUse', error);
      report(failure);
      return { kind: 'deny', reason: failure.message };
    }
  }
  return { kind: 'allow', input };
}

/** Runs `PostToolUse` hooks in order; a replacement feeds the next hook. */
export async function runPostToolHooks(
  hooks: Hooks | undefined,
  call: {
    toolName: string;
    toolUseId: string;
    input: Record<string, unknown>;
    result: unknown;
    isError: boolean;
  },
  report: ReportError,
): Promise<unknown> {
  let result = call.result;
  for (const hook of hooks?.PostToolUse ?? []) {
    try {
      const replacement = await hook({ ...call, result });
      if (replacement) result = replacement.result;
    } catch (error) {
      report(hookFailure('PostToolUse', error));
    }
  }
  return result;
}
