import type { ToolDefinition } from '../types/chat-request.js';
import { toToolDefinition, type Tool } from './tool.js';

/** Tools by name, built once per client. */
export interface ToolRegistry {
  get(name: string): Tool | undefined;
  readonly names: ReadonlySet<string>;
  /** The request's `tools` array (undefined when there are none: some servers reject `[]`). */
  readonly definitions: ToolDefinition[] | undefined;
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
  return { get: (name) => byName.get(name), names: new Set(byName.keys()), definitions };
}
