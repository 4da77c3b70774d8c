/**
 * Tool cards render with code loaded by `import()` after the chat's first paint (as markdown
 * is): a chat that never calls a tool waits for none of it, and the first load stays within
 * its budget. Loading defines `<agent-elapsed>`, the cards' running clock.
 */
import type * as Cards from './tool-card.js';

type ToolCards = typeof Cards;

let loaded: ToolCards | undefined;
let loading: Promise<ToolCards> | undefined;

/** The tool-card templates once loaded; `undefined` before (see {@link loadToolCards}). */
export function toolCards(): ToolCards | undefined {
  return loaded;
}

/** Loads the tool-card templates (once); resolves when they can render. */
export function loadToolCards(): Promise<ToolCards> {
  loading ??= import('./tool-card.js').then((cards) => {
    if (!customElements.get('agent-elapsed'))
      customElements.define('agent-elapsed', cards.AgentElapsed);
    return (loaded = cards);
  });
  return loading;
}
