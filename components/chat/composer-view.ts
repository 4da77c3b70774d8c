import type { TemplateResult } from 'lit';
import type { Translate } from '../strings/chat-strings.js';
import { composerTemplate } from './chat-controls.js';
import type { ComposerInput } from './composer-input.js';

/**
 * The composer of `<agent-chat>`: {@link composerTemplate} showing `input` (the draft, its
 * images, the message being edited) and wired to it, with the element's state and actions.
 */
export function composerView(
  input: ComposerInput,
  state: { placeholder: string; running: boolean; blocked: boolean; canRegenerate: boolean },
  actions: { stop: () => void; regenerate: () => void },
  t: Translate,
): TemplateResult {
  return composerTemplate(
    {
      ...state,
      draft: input.draft,
      editing: input.editing !== undefined,
      images: input.images,
      attachments: input.attachments(t),
    },
    {
      ...actions,
      input: input.input,
      keydown: input.keydown,
      submit: (event: SubmitEvent) => {
        event.preventDefault();
        input.submit();
      },
      take: input.take,
    },
    t,
  );
}
