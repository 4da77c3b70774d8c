import { describe, expect, it } from 'vitest';
import { isAgentError } from '../../src/index.js';
import { defaultNeedsApproval, toOpenAgentTools } from '../../src/mcp/mcp-tools.js';
import { toToolContent } from '../../src/mcp/mcp-tool-result.js';

const object = { type: 'object' as const, properties: {} };
const noCall = () => Promise.reject(new Error('not called'));

describe('MCP tools as open-agent tools', () => {
  it('asks for approval unless the server says read-only or not destructive (spec defaults)', () => {
    expect(defaultNeedsApproval(undefined)).toBe(true);
    expect(defaultNeedsApproval({ destructiveHint: true })).toBe(true);
    expect(defaultNeedsApproval({ readOnlyHint: false })).toBe(true);
    expect(defaultNeedsApproval({ readOnlyHint: true })).toBe(false);
    expect(defaultNeedsApproval({ readOnlyHint: false, destructiveHint: false })).toBe(false);
  });

  it('lets the page override approvals per tool, by the server name', () => {
    const { tools } = toOpenAgentTools(
      [
        { name: 'delete_file', inputSchema: object, annotations: { destructiveHint: true } },
        { name: 'read_file', inputSchema: object, annotations: { readOnlyHint: true } },
      ],
      noCall,
      { prefix: 'fs', reservedNames: [], approvals: { delete_file: false, read_file: true } },
    );
    expect(tools.map((tool) => [tool.name, tool.needsApproval])).toEqual([
      ['delete_file', false],
      ['read_file', true],
    ]);
  });

  it('makes names valid for model servers and prefixes the ones that collide', () => {
    const { tools, info } = toOpenAgentTools(
      [
        { name: 'calculator', inputSchema: object },
        { name: 'files.read', inputSchema: object },
        { name: 'files/read', inputSchema: object },
      ],
      noCall,
      { prefix: 'srv', reservedNames: ['calculator'], approvals: {} },
    );
    expect(tools.map((tool) => tool.name)).toEqual([
      'srv_calculator',
      'files_read',
      'srv_files_read',
    ]);
    expect(info.map((entry) => entry.serverName)).toEqual([
      'calculator',
      'files.read',
      'files/read',
    ]);
  });

  it('keeps descriptions as the plain text the server sent', () => {
    const { tools } = toOpenAgentTools(
      [{ name: 'x', description: '<img src=x onerror=alert(1)>', inputSchema: object }],
      noCall,
      { prefix: 'p', reservedNames: [], approvals: {} },
    );
    expect(tools[0]?.description).toBe('<img src=x onerror=alert(1)>');
  });

  it('maps results: text joined, structuredContent first, images as parts, isError as TOOL_FAILED', () => {
    expect(
      toToolContent('t', {
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      }),
    ).toBe('a\n\nb');
    expect(
      toToolContent('t', { content: [{ type: 'text', text: '{}' }], structuredContent: { ok: 1 } }),
    ).toEqual({ ok: 1 });
    expect(
      toToolContent('t', { content: [{ type: 'image', data: 'AAAA', mimeType: 'image/gif' }] }),
    ).toEqual([{ type: 'image_url', image_url: { url: 'data:image/gif;base64,AAAA' } }]);
    let thrown: unknown;
    try {
      toToolContent('t', { isError: true, content: [{ type: 'text', text: 'disk full' }] });
    } catch (error) {
      thrown = error;
    }
    expect(isAgentError(thrown, 'TOOL_FAILED')).toBe(true);
    expect((thrown as Error).message).toBe('Tool "t" failed: disk full');
  });
});
