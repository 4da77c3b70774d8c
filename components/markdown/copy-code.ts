import type { Translate } from '../strings/chat-strings.js';

/**
 * A click in the message log: a code block's Copy button copies the block's text (one
 * listener on the log for every block, also those rendered later).
 */
export function copyCode(event: MouseEvent, t: Translate): void {
  const button = (event.target as Element | null)?.closest?.('button[data-copy]');
  if (!(button instanceof HTMLButtonElement)) return;
  // Inside a <summary> (a JSON answer's bar) the click copies and does not fold the block.
  event.preventDefault();
  copyText(button, button.closest('.code-block')?.querySelector('pre')?.textContent ?? '', t);
}

/** Copies `text` with the Clipboard API; `button` says "Copied" (or "Copy failed") for 1.5 s. */
export function copyText(button: HTMLButtonElement, text: string, t: Translate): void {
  navigator.clipboard.writeText(text).then(
    () => flash(button, t('Copied'), t),
    () => flash(button, t('Copy failed'), t),
  );
}

function flash(button: HTMLButtonElement, text: string, t: Translate): void {
  const label = button.getAttribute('aria-label');
  button.textContent = text;
  // Said by screen readers too: the label would hide the new text.
  button.setAttribute('aria-label', text);
  setTimeout(() => {
    button.textContent = t('Copy');
    if (label !== null) button.setAttribute('aria-label', label);
  }, 1500);
}
