import { javascriptTool, type Tool } from '../../src/index.js';
import { calculatorTool } from './calculator.js';
import { currentTimeTool } from './current-time.js';
import { notesTool } from './notes.js';

/** The demo's tools, by the name the model calls. */
export const DEMO_TOOLS = [
  { name: 'calculator', label: 'Calculator', where: 'in the page' },
  { name: 'run_javascript', label: 'JavaScript sandbox', where: 'in a Web Worker' },
  { name: 'notes', label: 'Notes', where: 'stored in IndexedDB' },
  { name: 'current_time', label: 'Current time', where: 'in the page' },
] as const;

export type DemoToolName = (typeof DEMO_TOOLS)[number]['name'];

const cache = new Map<string, Tool>();

/**
 * The enabled tools, each asking for approval or not. Tools are cached per setting so the
 * sandbox keeps its worker (and `<agent-chat>` sees the same objects) across re-renders.
 */
export function demoTools(
  enabled: ReadonlySet<DemoToolName>,
  approval: ReadonlySet<DemoToolName>,
): Tool[] {
  return DEMO_TOOLS.filter(({ name }) => enabled.has(name)).map(({ name }) => {
    const ask = approval.has(name);
    const key = `${name}:${ask}`;
    let found = cache.get(key);
    if (!found) {
      found = create(name, ask);
      cache.set(key, found);
    }
    return found;
  });
}

function create(name: DemoToolName, ask: boolean): Tool {
  switch (name) {
    case 'calculator':
      return calculatorTool(ask);
    case 'run_javascript':
      return javascriptTool({ needsApproval: ask, timeoutMs: 5_000 });
    case 'notes':
      return notesTool(ask);
    case 'current_time':
      return currentTimeTool(ask);
  }
}
