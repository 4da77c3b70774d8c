import { tool, type Tool } from '../index.js';
import { toToolContent, type McpCallToolResult } from './mcp-tool-result.js';

/** An MCP tool as `tools/list` describes it, as far as open-agent reads it. */
export interface McpToolDescription {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  inputSchema: { type: 'object'; [key: string]: unknown };
  annotations?:
    | {
        title?: string | undefined;
        readOnlyHint?: boolean | undefined;
        destructiveHint?: boolean | undefined;
        idempotentHint?: boolean | undefined;
        openWorldHint?: boolean | undefined;
      }
    | undefined;
}

/** What the page shows about one MCP tool beside the open-agent tool it became. */
export interface McpToolInfo {
  /** The open-agent tool's name (the server's name, made valid, prefixed on a collision). */
  name: string;
  /** The tool's name on the server. */
  serverName: string;
  /** The server's title or description: text from a server you may not control. */
  title: string;
  /** Whether a call waits for the user's approval. */
  needsApproval: boolean;
  annotations: NonNullable<McpToolDescription['annotations']>;
}

/** Calls a tool on the server: the SDK client's `callTool`, with the run's signal. */
export type CallMcpTool = (
  name: string,
  input: Record<string, unknown>,
  signal: AbortSignal,
) => Promise<McpCallToolResult>;

/** How {@link toOpenAgentTools} names tools and picks their approvals. */
export interface ToolMappingOptions {
  /** Put before a name that collides (`prefix_name`). */
  prefix: string;
  /** Names already taken by other tools (built-in tools, other servers). */
  reservedNames: readonly string[];
  /** Approval per server tool name, over the default from the annotations. */
  approvals: Readonly<Record<string, boolean>>;
}

/**
 * By default a call waits for approval unless the server marks the tool read-only or
 * not destructive: the MCP spec's defaults are `readOnlyHint: false`, `destructiveHint: true`.
 */
export function defaultNeedsApproval(annotations: McpToolDescription['annotations']): boolean {
  if (annotations?.readOnlyHint === true) return false;
  return annotations?.destructiveHint !== false;
}

/** MCP allows up to 128 characters including `.` and `/`; model servers take 64 of `[\w-]`. */
function validName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || 'tool';
}

/** The open-agent tools for a server's tool list, and what to show about each. */
export function toOpenAgentTools(
  descriptions: readonly McpToolDescription[],
  call: CallMcpTool,
  options: ToolMappingOptions,
): { tools: Tool[]; info: McpToolInfo[] } {
  const taken = new Set(options.reservedNames);
  const tools: Tool[] = [];
  const info: McpToolInfo[] = [];
  for (const description of descriptions) {
    const name = uniqueName(validName(description.name), options.prefix, taken);
    taken.add(name);
    const needsApproval =
      options.approvals[description.name] ?? defaultNeedsApproval(description.annotations);
    const { $schema: _dialect, ...input } = description.inputSchema;
    const text =
      description.description ?? description.title ?? description.annotations?.title ?? '';
    tools.push(
      tool({
        name,
        description: text,
        input,
        needsApproval,
        execute: async (args, { signal }) =>
          toToolContent(name, await call(description.name, args, signal)),
      }),
    );
    info.push({
      name,
      serverName: description.name,
      title: description.title ?? description.annotations?.title ?? description.name,
      needsApproval,
      annotations: description.annotations ?? {},
    });
  }
  return { tools, info };
}

function uniqueName(name: string, prefix: string, taken: ReadonlySet<string>): string {
  if (!taken.has(name)) return name;
  const base = `${prefix}_${name}`.slice(0, 60);
  let candidate = base;
  for (let count = 2; taken.has(candidate); count++) candidate = `${base}_${count}`;
  return candidate;
}
