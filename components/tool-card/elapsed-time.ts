/**
 * `<agent-elapsed since="…">`: a live "1.2 s" counter from a `performance.now()` time, for
 * running tool calls. Updates its own text (no re-render of the chat) and stops when
 * removed from the page.
 */
export class AgentElapsed extends HTMLElement {
  #timer: ReturnType<typeof setInterval> | undefined;

  connectedCallback(): void {
    this.setAttribute('role', 'timer');
    this.#tick();
    this.#timer = setInterval(() => this.#tick(), 100);
  }

  disconnectedCallback(): void {
    clearInterval(this.#timer);
  }

  #tick(): void {
    const since = Number(this.getAttribute('since') ?? performance.now());
    this.textContent = formatDuration(performance.now() - since);
  }
}

/** `850 ms`, `1.2 s`, `2 min 5 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}
