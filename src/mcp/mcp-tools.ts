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
  /** What the server says about the tool: information to show, never a reason to run it. */
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
  /** Approval per server tool name, over everything else. */
  approvals: Readonly<Record<string, boolean>>;
  /** What the app trusts on this server (see `McpTrust`); default: nothing. */
  trust?: McpTrust | undefined;
}

/**
 * What an app trusts on one MCP server, so that its calls run without asking. The MCP spec:
 * "clients MUST consider tool annotations to be untrusted unless they come from trusted
 * servers" — a server that says `readOnlyHint: true` may delete files. So by default nothing is
 * trusted and every call waits for the user's approval.
 */
export interface McpTrust {
  /** Tools (by their name on the server) that run without asking, or `'all'` of them. */
  tools?: readonly string[] | 'all';
  /**
   * Take the server's annotations as the default: no approval for a tool marked
   * `readOnlyHint: true` or `destructiveHint: false`. Only for a server the app runs itself.
   */
  annotations?: boolean;
}

/**
 * What the annotations would say, for a trusted server: ask unless the tool is marked read-only
 * or not destructive (the MCP spec's defaults are `readOnlyHint: false`, `destructiveHint: true`).
 */
export function defaultNeedsApproval(annotations: McpToolDescription['annotations']): boolean {
  if (annotations?.readOnlyHint === true) return false;
  return annotations?.destructiveHint !== false;
}

/** Whether a call of the server's tool `name` waits for approval, given what the app trusts. */
export function needsApprovalFor(
  description: McpToolDescription,
  options: Pick<ToolMappingOptions, 'approvals' | 'trust'>,
): boolean {
  const explicit = options.approvals[description.name];
  if (explicit !== undefined) return explicit;
  const trusted = options.trust?.tools;
  if (trusted === 'all' || trusted?.includes(description.name)) return false;
  return options.trust?.annotations === true ? defaultNeedsApproval(description.annotations) : true;
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
    const needsApproval = needsApprovalFor(description, options);
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
