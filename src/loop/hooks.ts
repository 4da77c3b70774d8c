import { AgentError, errorMessage } from '../errors/agent-error.js';
import { contentText, type ContentPart, type UserContent } from '../types/message.js';

type MaybePromise<T> = T | Promise<T>;

/**
 * `UserPromptSubmit`: rewrite the prompt, or block it (nothing is sent). `prompt` is the
 * prompt's text; a prompt with images also comes as `content` (its parts), and a rewritten
 * `prompt` replaces its text and keeps its images.
 */
export type UserPromptSubmitHook = (input: {
  prompt: string;
  content?: ContentPart[];
}) => MaybePromise<void | undefined | { prompt: string } | { continue: false; reason: string }>;

/** `PreToolUse`: allow (`undefined`), rewrite the input, deny, or ask for approval. */
export type PreToolUseHook = (input: {
  toolName: string;
  toolUseId: string;
  input: Record<string, unknown>;
}) => MaybePromise<
  | void
  | undefined
  | { input: Record<string, unknown> }
  | { continue: false; reason: string }
  | { decision: 'ask' }
>;

/** `PostToolUse`: sees the real result; may replace what the model is told. */
export type PostToolUseHook = (input: {
  toolName: string;
  toolUseId: string;
  input: Record<string, unknown>;
  result: unknown;
  isError: boolean;
}) => MaybePromise<void | undefined | { result: unknown }>;

/**
 * Hooks run in order, sync or async. A hook that throws is reported through
 * `onError`; a throwing `PreToolUse` denies the call (fail closed), the others are skipped.
 *
 * @example
 * hooks: { PreToolUse: [({ toolName }) => (toolName === 'delete_file' ? { decision: 'ask' } : undefined)] }
 */
export interface Hooks {
  UserPromptSubmit?: readonly UserPromptSubmitHook[];
  PreToolUse?: readonly PreToolUseHook[];
  PostToolUse?: readonly PostToolUseHook[];
}

/** What the `UserPromptSubmit` hooks decided. */
export type PromptDecision = { ok: true; prompt: UserContent } | { ok: false; reason: string };

/** What the `PreToolUse` hooks decided. */
export type ToolDecision =
  | { kind: 'allow'; input: Record<string, unknown> }
  | { kind: 'deny'; reason: string }
  | { kind: 'ask'; input: Record<string, unknown> };

type ReportError = (error: AgentError) => void;

function hookFailure(hook: string, error: unknown): AgentError {
  return new AgentError('TOOL_FAILED', `${hook} hook failed: ${errorMessage(error)}`, {
    cause: error,
    context: { hook },
  });
}

/** Runs `UserPromptSubmit` hooks in order; a rewrite feeds the next hook. */
export async function runPromptHooks(
  hooks: Hooks | undefined,
  prompt: UserContent,
  report: ReportError,
): Promise<PromptDecision> {
  const parts = typeof prompt === 'string' ? undefined : prompt;
  let text = contentText(prompt);
  let rewritten = false;
  for (const hook of hooks?.UserPromptSubmit ?? []) {
    try {
      const result = await hook(parts ? { prompt: text, content: parts } : { prompt: text });
      if (!result) continue;
      if ('continue' in result) return { ok: false, reason: result.reason };
      text = result.prompt;
      rewritten = true;
    } catch (error) {
      report(hookFailure('UserPromptSubmit', error));
    }
  }
  // A rewrite replaces the text and keeps the images.
  return {
    ok: true,
    prompt: !rewritten
      ? prompt
      : parts
        ? [{ type: 'text', text }, ...parts.filter((part) => part.type !== 'text')]
        : text,
  };
}

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
