import { html, nothing, type TemplateResult } from 'lit';
import type { PullProgress } from '../../src/index.js';
import type { Translate } from '../strings/chat-strings.js';
import { formatBytes } from './format-bytes.js';

/** A download under way or ended: its name, last progress, and how it ended. */
export interface PullState {
  name: string;
  progress?: PullProgress;
  error?: string;
  controller: AbortController;
}

/**
 * "Get a model…": a name field and Download, then a progress bar with percent, bytes, speed
 * and Cancel; a failure with its message (pulling again resumes).
 */
export function pullTemplate(
  state: { pull: PullState | undefined; draft: string; locale: string | undefined },
  actions: {
    input: (value: string) => void;
    start: (event: SubmitEvent) => void;
    cancel: () => void;
  },
  t: Translate,
): TemplateResult {
  const { pull, draft, locale } = state;
  const running = pull !== undefined && pull.error === undefined && pull.progress?.done !== true;
  const progress = pull?.progress;
  return html`<form class="pull" part="pull-form" @submit=${actions.start}>
    <label for="pull-name">${t('Model name')}</label>
    <div class="row">
      <input
        id="pull-name"
        part="pull-input"
        .value=${draft}
        placeholder="qwen3:4b"
        autocomplete="off"
        spellcheck="false"
        ?disabled=${running}
        @input=${(event: Event) => actions.input((event.target as HTMLInputElement).value)}
      />
      ${
        running
          ? html`<button type="button" part="pull-cancel-button" @click=${actions.cancel}>
              ${t('Cancel')}
            </button>`
          : html`<button
              type="submit"
              class="primary"
              part="pull-button"
              ?disabled=${draft.trim() === ''}
            >
              ${t('Download')}
            </button>`
      }
    </div>
    ${
      pull && (running || pull.error !== undefined)
        ? html`<div class="progress" part="pull-progress">
            <progress
              max="100"
              value=${progress?.percent ?? 0}
              aria-label=${t('Downloading {name}', { name: pull.name })}
            ></progress>
            <span role="status"
              >${pull.error === undefined ? progressText(progress, locale, t) : t('The download stopped: {message}', { message: pull.error })}</span
            >
          </div>`
        : nothing
    }
  </form>`;
}

function progressText(
  progress: PullProgress | undefined,
  locale: string | undefined,
  t: Translate,
): string {
  if (!progress || progress.total === undefined) return progress?.status ?? t('Starting…');
  const figures = t('{percent} % · {done} of {total}', {
    percent: progress.percent,
    done: formatBytes(progress.completed, locale),
    total: formatBytes(progress.total, locale),
  });
  return progress.bytesPerSecond === undefined
    ? figures
    : `${figures} · ${t('{speed}/s', { speed: formatBytes(progress.bytesPerSecond, locale) })}`;
}
