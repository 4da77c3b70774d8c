import { SharedClock } from './shared-clock.js';

/** The beat of every `<agent-elapsed>` on the page: one timer however many calls run. */
export const elapsedClock = new SharedClock(100);

/**
 * `<agent-elapsed since="…">`: a live "1.2 s" counter from a `performance.now()` time, for
 * running tool calls. Updates its own text (no re-render of the chat) on the page's one
 * {@link elapsedClock}, and stops when removed from the page.
 */
export class AgentElapsed extends HTMLElement {
  #stop: (() => void) | undefined;

  connectedCallback(): void {
    this.setAttribute('role', 'timer');
    this.#tick();
    this.#stop ??= elapsedClock.add(() => this.#tick());
  }

  disconnectedCallback(): void {
    this.#stop?.();
    this.#stop = undefined;
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
    unitFormat(locale, name, digits).format(value);
  if (ms < 1000) return unit(Math.max(0, Math.round(ms)), 'millisecond');
  if (ms < 60_000) return unit(ms / 1000, 'second', 1);
  const seconds = Math.round(ms / 1000);
  return `${unit(Math.floor(seconds / 60), 'minute')} ${unit(seconds % 60, 'second')}`;
}

/** Formatters by locale, unit and digits: building one per card per tick cost more than the tick. */
const unitFormats = new Map<string, Intl.NumberFormat>();

function unitFormat(
  locale: string | undefined,
  unit: 'millisecond' | 'second' | 'minute',
  digits: number,
): Intl.NumberFormat {
  const key = `${locale ?? ''} ${unit} ${digits}`;
  let format = unitFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      style: 'unit',
      unit,
      unitDisplay: 'short',
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    unitFormats.set(key, format);
  }
  return format;
}
