import type { ToolDefinition } from '../types/chat-request.js';
import type { ToolUseBlock } from '../types/events.js';
import type { InputValidation } from './validate-input.js';
// Only the type from tool.ts: a run that defines no tool must not reach tool()'s validator.
import type { Tool } from './tool.js';

/**
 * What `AgentOptions.tools` takes: the tools, or a function that returns the tools of the
 * moment — read again before every model call (e.g. `() => mcp.tools`, whose list a server
 * may change while a run goes on).
 */
export type ToolSource = readonly Tool[] | (() => readonly Tool[]);

/** Tools by name, built once per client and read again from a live source before each model call. */
export interface ToolRegistry {
  get(name: string): Tool | undefined;
  readonly names: ReadonlySet<string>;
  /** The request's `tools` array (undefined when there are none: some servers reject `[]`). */
  readonly definitions: ToolDefinition[] | undefined;
  /**
   * Reads a function source again; rebuilds only when a tool changed. A no-op for an array.
   * @throws TypeError `Duplicate tool name: add` when two tools share a name.
   */
  refresh(): void;
  /**
   * Resolves once every tool's `validate` can run ({@link Tool.prepare}); the loop awaits it
   * before each model call. Rejects like the first tool whose schema cannot be read.
   */
  prepare(): Promise<void>;
  /**
   * What its tool's `validate` made of each call's input it accepted, by call: the loop checks
   * a call's input once, as the call streams in, and runs the call with that.
   */
  readonly accepted: WeakMap<ToolUseBlock, InputValidation>;
}

interface Index {
  tools: readonly Tool[];
  byName: Map<string, Tool>;
  names: ReadonlySet<string>;
  definitions: ToolDefinition[] | undefined;
  /** The tools' `prepare()`, once asked (dropped on failure: the next call reports it again). */
  prepared?: Promise<void> | undefined;
}

/**
 * Indexes tools by name.
 * @throws TypeError `Duplicate tool name: add` when two tools share a name.
 */
export function createToolRegistry(source: ToolSource = []): ToolRegistry {
  let index = indexTools(typeof source === 'function' ? source() : source);
  return {
    accepted: new WeakMap(),
    get: (name) => index.byName.get(name),
    get names() {
      return index.names;
    },
    get definitions() {
      return index.definitions;
    },
    refresh: () => {
      if (typeof source !== 'function') return;
      const tools = source();
      // The same tools (a getter that builds a new array each time): keep the definitions
      // object, which the context window's counting caches by identity.
      if (tools.length === index.tools.length && tools.every((tool, i) => tool === index.tools[i]))
        return;
      index = indexTools(tools);
    },
    prepare: () => {
      const current = index;
      return (current.prepared ??= Promise.all(
        current.tools.map(async (tool) => tool.prepare?.()),
      ).then(
        () => undefined,
        (error: unknown) => {
          current.prepared = undefined;
          throw error;
        },
      ));
    },
  };
}

function indexTools(tools: readonly Tool[]): Index {
  const byName = new Map<string, Tool>();
  for (const tool of tools) {
    if (byName.has(tool.name)) throw new TypeError(`Duplicate tool name: ${tool.name}`);
    byName.set(tool.name, tool);
  }
  const definitions = tools.length > 0 ? tools.map(toToolDefinition) : undefined;
  return { tools: [...tools], byName, names: new Set(byName.keys()), definitions };
}

/** The wire definition of a tool, for the request's `tools` array. */
export function toToolDefinition(tool: Tool): ToolDefinition {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}
