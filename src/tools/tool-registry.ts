import type { ToolDefinition } from '../types/chat-request.js';
// Only the type from tool.ts: a run that defines no tool must not reach tool()'s validator.
import type { Tool } from './tool.js';

/** Tools by name, built once per client. */
export interface ToolRegistry {
  get(name: string): Tool | undefined;
  readonly names: ReadonlySet<string>;
  /** The request's `tools` array (undefined when there are none: some servers reject `[]`). */
  readonly definitions: ToolDefinition[] | undefined;
  /**
   * Resolves once every tool's `validate` can run ({@link Tool.prepare}); the loop awaits it
   * before each model call. Rejects like the first tool whose schema cannot be read.
   */
  prepare(): Promise<void>;
}

/**
 * Indexes tools by name.
 * @throws TypeError `Duplicate tool name: add` when two tools share a name.
 */
export function createToolRegistry(tools: readonly Tool[] = []): ToolRegistry {
  const byName = new Map<string, Tool>();
  for (const tool of tools) {
    if (byName.has(tool.name)) throw new TypeError(`Duplicate tool name: ${tool.name}`);
    byName.set(tool.name, tool);
  }
  const definitions = tools.length > 0 ? tools.map(toToolDefinition) : undefined;
  let prepared: Promise<void> | undefined;
  return {
    get: (name) => byName.get(name),
    names: new Set(byName.keys()),
    definitions,
    prepare: () =>
      (prepared ??= Promise.all(tools.map(async (tool) => tool.prepare?.())).then(
        () => undefined,
        (error: unknown) => {
          prepared = undefined; // not kept: the next model call reports it again
          throw error;
        },
      )),
  };
}

/** The wire definition of a tool, for the request's `tools` array. */
export function toToolDefinition(tool: Tool): ToolDefinition {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}
