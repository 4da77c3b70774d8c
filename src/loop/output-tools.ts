import { AgentError } from '../errors/agent-error.js';
import { tool, type Tool } from '../tools/tool.js';
import { isRecord } from '../types/is-record.js';
import { describeIssues, standardValidate } from '../types/schema-check.js';
import type { InputValidator } from '../tools/validate-input.js';
import { SUBMIT_TOOL_NAME, type AgentOutput } from './define-agent.js';
import type { OutputRecorder } from './output-recorder.js';

/**
 * The tools that carry the output: the output tool (whose `execute` records the candidate)
 * and, with reflection, the `submit` tool. Built per execution: they write to `recorder`.
 *
 * The output tool accepts any object as input. Its schema is still what the model sees,
 * but a mismatch is a failed *attempt* (the model gets the error as a new message), not a
 * tool error inside the attempt.
 */
export function createOutputTools<Output>(
  output: AgentOutput<Output>,
  recorder: OutputRecorder,
): Tool[] {
  const { reflection } = output;
  const outputTool: Tool = {
    name: output.name,
    description: output.description,
    parameters: output.parameters,
    validate: anyObject(output.name),
    execute: async (input, { toolUseId }) => {
      recorder.record(toolUseId, input);
      if (!reflection) return 'Output received; it will now be validated.';
      const parsed = standardValidate(output.schema, input);
      if (!parsed.success) {
        // Recorded anyway: a `submit` now would fail validation with the same message.
        throw new AgentError(
          'INVALID_TOOL_INPUT',
          `The output does not match the schema: ${describeIssues(parsed.issues, '', 10)}. Call "${output.name}" again with a corrected output.`,
        );
      }
      return reflection.handler(parsed.data);
    },
  };
  if (!reflection) return [outputTool];
  const submitTool = tool({
    name: SUBMIT_TOOL_NAME,
    description: reflection.submitDescription,
    // Not strict: a model that passes its output to `submit` too still submits.
    input: { type: 'object', properties: {} },
    execute: (_input, { toolUseId }) => {
      if (!recorder.submit(toolUseId)) {
        throw new AgentError(
          'SUBMIT_BEFORE_OUTPUT',
          `There is no output to submit yet: call "${output.name}" with your output first, then "${SUBMIT_TOOL_NAME}".`,
        );
      }
      return 'Output submitted for validation.';
    },
  });
  return [outputTool, submitTool];
}

function anyObject(toolName: string): InputValidator {
  return (input) =>
    isRecord(input)
      ? { success: true, value: input }
      : { success: false, error: `Tool "${toolName}" received invalid input: expected an object` };
}
