/**
 * A click in the message log: a code block's Copy button copies the block's text (one
 * listener on the log for every block, also those rendered later).
 */
export function copyCode(event: MouseEvent): void {
  const button = (event.target as Element | null)?.closest?.('button[data-copy]');
  if (!(button instanceof HTMLButtonElement)) return;
  // Inside a <summary> (a JSON answer's bar) the click copies and does not fold the block.
  event.preventDefault();
  const code = button.closest('.code-block')?.querySelector('pre')?.textContent ?? '';
  navigator.clipboard.writeText(code).then(
    () => flash(button, 'Copied'),
    () => flash(button, 'Copy failed'),
  );
}

function flash(button: HTMLButtonElement, text: string): void {
  button.textContent = text;
  setTimeout(() => (button.textContent = 'Copy'), 1500);
}
