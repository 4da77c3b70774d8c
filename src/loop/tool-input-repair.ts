import { AgentError, callbackFailure } from '../errors/agent-error.js';
import type { AssistantTurn } from '../stream/aggregate-stream.js';
import type { ToolUseBlock } from '../types/events.js';
import type { LoopContext } from './loop-context.js';
import type { Tool } from '../tools/tool.js';

/**
 * A call as {@link AgentOptions.repairToolInput} receives it: the model's input, which
 * failed the tool's schema.
 */
export interface ToolCallToRepair {
  toolUseId: string;
  name: string;
  input: Record<string, unknown>;
}

/**
 * The input a call will run with, decided before its `tool_use` event: the model's input
 * when the tool's schema accepts it; else the app's `repairToolInput` (tried first), then
 * the obvious repairs of `repairToolInput` (tools/repair-tool-input.ts), whichever the schema accepts; else the
 * model's input unchanged (the round reports it as `INVALID_TOOL_INPUT`).
 */
export class ToolInputRepairs {
  readonly #context: LoopContext;
  readonly #uses: ToolUseBlock[] = [];

  constructor(context: LoopContext) {
    this.#context = context;
  }

  /**
   * `use` with the input that will be used (the same object when nothing changed) — at once
   * when the schema accepts it (the usual case), else once the repairs were tried.
   */
  use(use: ToolUseBlock): ToolUseBlock | Promise<ToolUseBlock> {
    const tool = this.#context.registry.get(use.name);
    const validation = tool?.validate(use.input);
    if (!tool || !validation || validation.success) {
      // The round runs the call with this, without checking it again.
      if (validation) this.#context.registry.accepted.set(use, validation);
      this.#uses.push(use);
      return use;
    }
    return this.#repaired(use, tool, validation.error).then((used) => {
      this.#uses.push(used);
      return used;
    });
  }

  /** The turn with the calls' inputs as {@link use} decided them (calls come in turn order). */
  apply(turn: AssistantTurn): AssistantTurn {
    if (this.#uses.length !== turn.toolCalls.length) return turn;
    for (let index = 0; index < this.#uses.length; index++)
      if (this.#uses[index] !== turn.toolCalls[index])
        return { ...turn, toolCalls: [...this.#uses] };
    return turn;
  }

  async #repaired(use: ToolUseBlock, tool: Tool, error: string): Promise<ToolUseBlock> {
    let input = use.input;
    const hook = this.#context.options.repairToolInput;
    if (hook) {
      try {
        const proposed = await hook(
          { toolUseId: use.id, name: use.name, input: use.input },
          new AgentError('INVALID_TOOL_INPUT', error, {
            context: { toolUseId: use.id, name: use.name },
          }),
        );
        if (proposed !== undefined) input = proposed;
      } catch (error) {
        this.#context.report(callbackFailure('repairToolInput', error));
      }
      if (input !== use.input && tool.validate(input).success) return { ...use, input };
    }
    // Loaded on the first call that needs it: a page whose model gets types right never does.
    const { repairToolInput } = await import('../tools/repair-tool-input.js');
    const repaired = repairToolInput(input, tool.parameters);
    if (repaired !== undefined && tool.validate(repaired).success)
      return { ...use, input: repaired };
    return use;
  }
}
