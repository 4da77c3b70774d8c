import { contentText, type Message } from '../../src/index.js';

/** What the composer's keys and submit act on: the element's session, seen through a port. */
export interface ComposerPort {
  running(): boolean;
  ready(): boolean;
  history(): readonly Message[];
  stop(): void;
  send(text: string): void;
  resend(messageIndex: number, text: string): void;
  changed(): void;
}

/** The last user message of `history`: its index and its text. */
export function lastPrompt(history: readonly Message[]): { index: number; text: string } | undefined {
  for (let index = history.length - 1; index >= 0; index--) {
    const message = history[index];
    if (message?.role === 'user') return { index, text: contentText(message.content) };
  }
  return undefined;
}

/**
 * The composer's state: the draft being typed and, after ↑ in an empty box, the user
 * message being edited (Enter resends it in place of the old one; Escape gives up).
 */
export class ComposerInput {
  draft = '';
  /** The history index of the user message being edited, until sent or Escape. */
  editing: number | undefined;
  readonly #port: ComposerPort;

  constructor(port: ComposerPort) {
    this.#port = port;
  }

  readonly input = (value: string): void => {
    this.draft = value;
    this.#port.changed();
  };

  readonly keydown = (event: KeyboardEvent): void => {
    const port = this.#port;
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      this.submit();
    } else if (event.key === 'Escape' && port.running()) {
      port.stop();
    } else if (event.key === 'Escape' && this.editing !== undefined) {
      this.editing = undefined;
      this.draft = '';
      port.changed();
    } else if (event.key === 'ArrowUp' && this.draft === '' && !port.running()) {
      const last = lastPrompt(port.history());
      if (!last) return;
      event.preventDefault();
      this.editing = last.index;
      this.draft = last.text;
      port.changed();
    }
  };

  /** Sends the draft (or resends the edited message); nothing while a run goes or when empty. */
  submit(): void {
    const text = this.draft.trim();
    const port = this.#port;
    if (text === '' || port.running() || !port.ready()) return;
    const editing = this.editing;
    this.draft = '';
    this.editing = undefined;
    if (editing === undefined) port.send(text);
    else port.resend(editing, text);
  }
}
