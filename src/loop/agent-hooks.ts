import type { AgentRunState, CallbackRunner } from './agent-callbacks.js';
import { resultText } from './round-calls.js';
import type { Hooks } from './hooks.js';
import type { OutputRecorder } from './output-recorder.js';

/**
 * The loop hooks of an execution: `PreToolUse` numbers each call in call order (for "the
 * last output call wins") and fires `onToolCall`; `PostToolUse` fires `onToolResult` with
 * the text the model will read. Neither changes the call or its result, and neither throws
 * (a throwing `PreToolUse` would deny the call).
 */
export function agentHooks(options: {
  recorder: OutputRecorder;
  callbacks: CallbackRunner;
  state: () => AgentRunState;
}): Hooks {
  const { recorder, callbacks, state } = options;
  return {
    PreToolUse: [
      async ({ toolName, toolUseId, input }) => {
        recorder.noteCall(toolUseId);
        await callbacks.run('onToolCall', (onToolCall) => onToolCall(state(), toolName, input));
        return undefined;
      },
    ],
    PostToolUse: [
      async ({ toolName, result, isError }) => {
        const text = resultText(result);
        // The same prefix the loop adds when it writes an error result into history.
        const seen = isError && !text.startsWith('Error') ? `Error: ${text}` : text;
        await callbacks.run('onToolResult', (onToolResult) =>
          onToolResult(state(), toolName, seen),
        );
        return undefined;
      },
    ],
  };
}
