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
    this.textContent = formatDuration(
      performance.now() - since,
      document.documentElement.lang || undefined,
    );
  }
}

/**
 * `850 ms`, `1.2 s`, `2 min 5 s` — digits and unit names in `locale` through
 * `Intl.NumberFormat`'s units (`1,2 s` in French, `1,2 Sek.` in German, `850 ミリ秒` in Japanese).
 */
export function formatDuration(ms: number, locale?: string): string {
  const unit = (value: number, name: 'millisecond' | 'second' | 'minute', digits = 0) =>
    new Intl.NumberFormat(locale, {
      style: 'unit',
      unit: name,
      unitDisplay: 'short',
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(value);
  if (ms < 1000) return unit(Math.max(0, Math.round(ms)), 'millisecond');
  if (ms < 60_000) return unit(ms / 1000, 'second', 1);
  const seconds = Math.round(ms / 1000);
  return `${unit(Math.floor(seconds / 60), 'minute')} ${unit(seconds % 60, 'second')}`;
}
