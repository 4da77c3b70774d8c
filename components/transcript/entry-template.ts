import { html, nothing, type TemplateResult } from 'lit';
import { jsonText } from '../tool-card/json-text.js';
import type { ToolCardActions } from '../tool-card/tool-card.js';
import { toolCards } from '../tool-card/tool-card-loader.js';
import type { Translate } from '../strings/chat-strings.js';
import type { AssistantEntry, AssistantPart, Entry } from './entry-types.js';
import { CardBudget } from './card-budget.js';
import type { MessageActions } from './message-actions.js';
import { messageRow } from '../chat/message-row-loader.js';
import { shownImageSource } from './image-source.js';
import { waitingText } from './waiting-state.js';

/** One transcript entry: a user bubble, or an assistant turn with its parts in order. */
export function entryTemplate(
  entry: Entry,
  actions: ToolCardActions,
  t: Translate,
  messageActions: MessageActions | undefined,
  allowRemoteImages = false,
  budget = new CardBudget(Infinity),
): TemplateResult {
  const row = messageActions && messageRow()?.messageActionsTemplate(entry, messageActions, t);
  if (entry.kind === 'user') {
    return html`${entry.before?.(t)}<article class="message user" part="message message-user" aria-label=${t('You')}>
      ${
        entry.images?.length
          ? html`<div class="images" part="images">${entry.images.map((url, index) => userImage(url, index, t, allowRemoteImages))}</div>`
          : nothing
      }
      ${entry.text ? html`<div class="bubble" part="bubble user-bubble">${entry.text}</div>` : nothing}
      ${row ?? nothing}
    </article>`;
  }
  return html`<article class="message assistant ${entry.state}" part="message message-assistant" aria-label=${t('Assistant')}
      aria-busy=${entry.state === 'streaming' ? 'true' : 'false'}>
    ${partsTemplate(entry, actions, t, budget)}
    ${
      entry.state === 'streaming' && !hasVisibleOutput(entry)
        ? html`<div class="typing" part="typing" aria-label=${t('The assistant is answering')}><span></span><span></span><span></span>${
            entry.waiting
              ? html`<output class="waiting" part="waiting" role="status">${waitingText(entry.waiting, t)}</output>`
              : nothing
          }</div>`
        : nothing
    }
    ${entry.state === 'stopped' ? html`<p class="note" part="note">${t('Stopped.')}</p>` : nothing}
    ${entry.note === undefined ? nothing : html`<p class="note" part="note">${t(entry.note.text, entry.note.values)}</p>`}
    ${row ?? nothing}
  </article>`;
}

/**
 * The answer's parts in order, up to the first card this render could not build: what comes
 * after it (the answer's text, "All done.") waits with it — shown before, it read as the end
 * of a list whose last cards were still coming.
 */
function partsTemplate(
  entry: AssistantEntry,
  actions: ToolCardActions,
  t: Translate,
  budget: CardBudget,
): unknown[] {
  const templates: unknown[] = [];
  for (const part of entry.parts) {
    const template = partTemplate(part, actions, t, () => budget.take(entry), budget);
    if (template === nothing && (part.kind === 'tool' || part.kind === 'tool-input')) break;
    templates.push(template);
  }
  return templates;
}

/** A user message's image, by the same rule as the model's images (see shownImageSource). */
function userImage(
  url: string,
  index: number,
  t: Translate,
  allowRemoteImages: boolean,
): TemplateResult {
  const source = shownImageSource(url, allowRemoteImages);
  const alt = t('Image {n}', { n: index + 1 });
  return source === undefined
    ? html`<span class="blocked-image" part="blocked-image" title=${t('Remote images are blocked: they can leak the conversation to another site')}>${t('Image not loaded: {alt}', { alt })}</span>`
    : html`<img part="image" src=${source} alt=${alt} referrerpolicy="no-referrer">`;
}

/**
 * One part of an answer. `build()` says whether this render may build one more card (see
 * CardBudget): past it a card keeps its last template, and a new one waits for a later render.
 */
function partTemplate(
  part: AssistantPart,
  actions: ToolCardActions,
  t: Translate,
  build: () => boolean,
  budget: CardBudget,
): unknown {
  switch (part.kind) {
    case 'text':
      return html`${part.view.element}`;
    case 'reasoning':
      return html`<details class="reasoning ${part.streaming ? 'streaming' : ''}" part="reasoning">
        <summary part="reasoning-summary">${t(part.streaming ? 'Thinking…' : 'Reasoning')}</summary>
        ${part.view.element}
      </details>`;
    case 'tool':
    case 'tool-input': {
      // The cards' code loads after the first paint where tools are set, else with the first
      // card: until then (a moment) none shows, and the render asks for another.
      const cards = toolCards();
      if (!cards) {
        budget.cardsMissing = true;
        return nothing;
      }
      return cards.cardTemplate(part, actions, t, build);
    }
    case 'json':
      // A structured answer: formatted JSON, collapsible, with the code blocks' Copy button.
      return html`<details class="code-block json" open part="json">
        <summary class="code-bar">${t('JSON')} <button type="button" data-copy>${t('Copy')}</button></summary>
        <pre tabindex="0"><code>${jsonText(part.value)}</code></pre>
      </details>`;
  }
}

function hasVisibleOutput(entry: AssistantEntry): boolean {
  const last = entry.parts.at(-1);
  return last !== undefined && !(last.kind === 'tool' && last.status !== 'running');
}
