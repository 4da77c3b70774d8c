import { describe, expect, it } from 'vitest';
import { executeTool } from '../../src/tools/execute-tool.js';
import { tool } from '../../src/tools/tool.js';

const input = { type: 'object', properties: {} } as const;

describe('executeTool without a signal or timeout', () => {
  it('returns a synchronous answer at once, and awaits a promise or any thenable', async () => {
    const sync = tool({ name: 'sync', description: '', input, execute: () => 7 });
    expect(executeTool(sync, {}, { toolUseId: 'a' })).toEqual({ ok: true, content: 7 });

    const later = tool({
      name: 'later',
      description: '',
      input,
      execute: () => Promise.resolve(8),
    });
    const pending = executeTool(later, {}, { toolUseId: 'b' });
    expect(pending).toBeInstanceOf(Promise);
    expect(await pending).toEqual({ ok: true, content: 8 });

    // A thenable that is not a Promise (another library's, another realm's) is awaited too.
    const thenable = {
      then: (resolve: (value: number) => void) => resolve(9),
    };
    const foreign = tool({ name: 'foreign', description: '', input, execute: () => thenable });
    expect(await executeTool(foreign, {}, { toolUseId: 'c' })).toEqual({ ok: true, content: 9 });
  });

  it('reports a throw or a rejection as TOOL_FAILED', async () => {
    const throws = tool({
      name: 'throws',
      description: '',
      input,
      execute: () => {
        throw new Error('boom');
      },
    });
    const thrown = executeTool(throws, {}, { toolUseId: 'a' });
    expect(!('then' in thrown) && !thrown.ok && thrown.error.code).toBe('TOOL_FAILED');

    const rejects = tool({
      name: 'rejects',
      description: '',
      input,
      execute: () => Promise.reject(new Error('late boom')),
    });
    const rejected = await executeTool(rejects, {}, { toolUseId: 'b' });
    expect(!rejected.ok && rejected.error.message).toBe('Tool "rejects" failed: late boom');
  });

  it('gives the tool a signal that never aborts, and its call id', () => {
    let seen: { aborted: boolean; isSignal: boolean; toolUseId: string } | undefined;
    const look = tool({
      name: 'look',
      description: '',
      input,
      execute: (_, context) => {
        seen = {
          aborted: context.signal.aborted,
          isSignal: context.signal instanceof AbortSignal,
          toolUseId: context.toolUseId,
        };
        return 'ok';
      },
    });
    expect(executeTool(look, {}, { toolUseId: 'call_1' })).toEqual({ ok: true, content: 'ok' });
    expect(seen).toEqual({ aborted: false, isSignal: true, toolUseId: 'call_1' });
  });
});
