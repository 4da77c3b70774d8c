import { hookFailure, type AgentError } from '../errors/agent-error.js';
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

/** Where a loop reports a hook that threw (as a `tool_use_error` event). */
export type ReportError = (error: AgentError) => void;

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
