import type { ChatSession } from '../chat/chat-session.js';
import type { ToolCardActions } from './tool-card.js';
import type { ToolPart } from '../transcript/entry-types.js';
import { loadChunk } from '../markdown/markdown-loader.js';
import { jsonText, resultText } from './json-text.js';

/**
 * What the tool-card buttons do: decisions go to the session (and so to the Client);
 * editing and expanding only change the card.
 */
export function toolCardActions(
  session: ChatSession,
  options: { changed(): void; focusEditor(part: ToolPart): void },
): ToolCardActions {
  const touch = (part: ToolPart) => {
    session.transcript.touch(part);
    options.changed();
  };
  const edit = (part: ToolPart, draft: string | undefined) => {
    if (draft === undefined) delete part.draft;
    else part.draft = draft;
    delete part.draftError;
    touch(part);
    if (draft !== undefined) options.focusEditor(part);
  };
  return {
    approve: (part) => void session.calls.approve(part),
    deny: (part) => void session.calls.deny(part),
    run: (part) => void session.calls.run(part),
    skip: (part) => void session.calls.deny(part, 'skipped by the user'),
    edit: (part) => edit(part, jsonText(part.input)),
    cancelEdit: (part) => edit(part, undefined),
    draft: (part, value) => {
      part.draft = value;
    },
    // Show more / Show less: the whole result is appended in slices by the markdown chunk's
    // TextSlices (1 MB of JSON laid out at once was a 720 ms task).
    expand: (part) => {
      if (part.expanded) {
        part.expanded = false;
        touch(part);
        return;
      }
      void loadChunk().then(
        ({ TextSlices }) => {
          part.wholeResult ??= new TextSlices(resultText(part.result)).element;
          part.expanded = true;
          touch(part);
        },
        () => undefined,
      );
    },
  };
}
