import { html, nothing, type TemplateResult } from 'lit';
import { jsonText } from '../tool-card/json-text.js';
import { toolCard, toolInputCard, type ToolCardActions } from '../tool-card/tool-card.js';
import type { AssistantEntry, AssistantPart, Entry } from './entry-types.js';

/** One transcript entry: a user bubble, or an assistant turn with its parts in order. */
export function entryTemplate(entry: Entry, actions: ToolCardActions): TemplateResult {
  if (entry.kind === 'user') {
    return html`<article class="message user" part="message message-user" aria-label="You">
      <div class="bubble" part="bubble user-bubble">${entry.text}</div>
    </article>`;
  }
  return html`<article class="message assistant ${entry.state}" part="message message-assistant" aria-label="Assistant"
      aria-busy=${entry.state === 'streaming' ? 'true' : 'false'}>
    ${entry.parts.map((part) => partTemplate(part, actions))}
    ${entry.state === 'streaming' && !hasVisibleOutput(entry)
      ? html`<div class="typing" part="typing" aria-label="The assistant is answering"><span></span><span></span><span></span></div>`
      : nothing}
    ${entry.state === 'stopped' ? html`<p class="note" part="note">Stopped.</p>` : nothing}
    ${entry.note === undefined ? nothing : html`<p class="note" part="note">${entry.note}</p>`}
  </article>`;
}

function partTemplate(part: AssistantPart, actions: ToolCardActions): TemplateResult {
  switch (part.kind) {
    case 'text':
      return html`${part.view.element}`;
    case 'reasoning':
      return html`<details class="reasoning ${part.streaming ? 'streaming' : ''}" part="reasoning">
        <summary part="reasoning-summary">${part.streaming ? 'Thinking…' : 'Reasoning'}</summary>
        ${part.view.element}
      </details>`;
    case 'tool':
      return toolCard(part, actions);
    case 'tool-input':
      return toolInputCard(part);
    case 'json':
      // A structured answer: formatted JSON, collapsible, with the code blocks' Copy button.
      return html`<details class="code-block json" open part="json">
        <summary class="code-bar">JSON <button type="button" data-copy>Copy</button></summary>
        <pre tabindex="0"><code>${jsonText(part.value)}</code></pre>
      </details>`;
  }
}

function hasVisibleOutput(entry: AssistantEntry): boolean {
  const last = entry.parts.at(-1);
  return last !== undefined && !(last.kind === 'tool' && last.status !== 'running');
}
