import { AgentError } from '../index.js';

/** One block of an MCP tool result, as far as the mapping reads it. */
interface McpContentBlock {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  resource?: { uri?: string; text?: string };
  uri?: string;
  name?: string;
}

/** An MCP `CallToolResult`, as far as the mapping reads it. */
export interface McpCallToolResult {
  content?: readonly McpContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  /** Servers on the 2024-10-07 protocol answer `{ toolResult }` instead. */
  toolResult?: unknown;
}

/** A part of a tool result with images: OpenAI's content parts, for models that accept them. */
export type McpResultPart =
  { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

/**
 * What an MCP tool result becomes as an open-agent tool result: `structuredContent` when the
 * server sent it; content parts (text and `image_url`) when it sent images; else the text
 * blocks joined with a blank line.
 *
 * @throws AgentError `TOOL_FAILED` carrying the server's text when the result has `isError`.
 */
export function toToolContent(toolName: string, result: McpCallToolResult): unknown {
  if (result.isError === true) {
    const text = joinText(result.content ?? []) || 'the server reported an error without text';
    throw new AgentError('TOOL_FAILED', `Tool "${toolName}" failed: ${text}`, {
      context: { toolName, mcp: true },
    });
  }
  if ('toolResult' in result && result.content === undefined) return result.toolResult;
  if (result.structuredContent !== undefined) return result.structuredContent;
  const blocks = result.content ?? [];
  if (!blocks.some((block) => block.type === 'image')) return joinText(blocks);
  return blocks.flatMap((block): McpResultPart[] => {
    if (block.type === 'image' && block.data !== undefined) {
      const url = `data:${block.mimeType ?? 'image/png'};base64,${block.data}`;
      return [{ type: 'image_url', image_url: { url } }];
    }
    const text = blockText(block);
    return text === undefined ? [] : [{ type: 'text', text }];
  });
}

function joinText(blocks: readonly McpContentBlock[]): string {
  return blocks
    .map(blockText)
    .filter((text): text is string => text !== undefined)
    .join('\n\n');
}

/** The text a model can read from a block: text, an embedded text resource, a link. */
function blockText(block: McpContentBlock): string | undefined {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'resource':
      return block.resource?.text ?? block.resource?.uri;
    case 'resource_link':
      return block.name === undefined ? block.uri : `${block.name}: ${block.uri ?? ''}`;
    case 'audio':
      return `[audio ${block.mimeType ?? ''}]`;
    default:
      return undefined;
  }
}
