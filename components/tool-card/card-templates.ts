import { nothing } from 'lit';
import type { Translate } from '../strings/chat-strings.js';
import type { ToolInputPart, ToolPart } from '../transcript/entry-types.js';
import { toolCard, toolInputCard, type ToolCardActions } from './tool-card.js';

/** Each card's last template and the fields it showed (a card is rebuilt when one changed). */
const cardTemplates = new WeakMap<object, { shown: unknown[]; template: unknown }>();

/**
 * A tool card's template, built again only when a field it shows changed. An entry re-renders
 * on every event of its run: with 200 cards, building each card's template again made one task
 * of seconds (issue 27). `build()` says whether this render may build one more card (see
 * CardBudget): past it a card keeps its last template, and a new one is `nothing` (it waits for
 * a later render). A card of arguments still streaming patches its own view: its template
 * changes only with the tool's name. (In the cards' chunk: a chat that never calls a tool
 * loads none of it.)
 *
 * @example
 * const template = cardTemplate(part, actions, t, () => budget.take(entry));
 */
export function cardTemplate(
  part: ToolPart | ToolInputPart,
  actions: ToolCardActions,
  t: Translate,
  build: () => boolean,
): unknown {
  const shown =
    part.kind === 'tool-input'
      ? [part.name, t]
      : [
          part.status,
          part.input,
          part.result,
          part.error,
          part.elapsedMs,
          part.startedAt,
          part.draft,
          part.draftError,
          part.expanded,
          part.wholeResult,
          part.runnable,
          part.handled,
          actions,
          t,
        ];
  const cached = cardTemplates.get(part);
  if (cached && cached.shown.every((value, index) => value === shown[index]))
    return cached.template;
  // A card of arguments shown once updates past the budget (its view is on the page already).
  if (!(part.kind === 'tool-input' && cached) && !build()) return cached?.template ?? nothing;
  const template = part.kind === 'tool-input' ? toolInputCard(part, t) : toolCard(part, actions, t);
  cardTemplates.set(part, { shown, template });
  return template;
}
