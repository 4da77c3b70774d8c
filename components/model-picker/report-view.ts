import { html, type TemplateResult } from 'lit';
import type { CheckStatus, ServerReport } from '../../src/index.js';
import type { ChatStrings, Translate } from '../strings/chat-strings.js';

const STATUS: Record<CheckStatus, keyof ChatStrings> = {
  pass: 'Pass',
  warn: 'Warning',
  fail: 'Failed',
};
const MARK: Record<CheckStatus, string> = { pass: '✓', warn: '!', fail: '✕' };

/** `checkServer`'s report: one row per check (mark, name, what was seen, the fix). */
export function reportTemplate(report: ServerReport, t: Translate): TemplateResult {
  return html`<ul class="report" part="server-report" aria-label=${t('Server check')}>
      ${report.checks.map(
        (check) =>
          html`<li class=${check.status}>
            <span class="mark" aria-hidden="true">${MARK[check.status]}</span>
            <div>
              <strong>${check.id}</strong>
              <span class="visually-hidden">${t(STATUS[check.status])}:</span> ${check.detail}
              ${check.fix === undefined ? '' : html`<div class="fix">${t('Fix: {fix}', { fix: check.fix })}</div>`}
            </div>
          </li>`,
      )}
    </ul>
    <p class="muted small">
      ${t('{n} short generations, at most {tokens} output tokens.', { n: report.generations, tokens: report.maxOutputTokens })}
    </p>`;
}
