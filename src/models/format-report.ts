import type { CheckStatus, ServerReport } from './check-server.js';

const MARK: Record<CheckStatus, string> = { pass: 'PASS', warn: 'WARN', fail: 'FAIL' };
const COLOUR: Record<CheckStatus, string> = {
  pass: '\u001b[32m',
  warn: '\u001b[33m',
  fail: '\u001b[31m',
};

/**
 * A {@link ServerReport} as terminal text: one line per check (`PASS`, `WARN`, `FAIL`, its
 * id, what was seen), the fix indented under it, and a summary. `colour` adds ANSI colours.
 */
export function formatReport(
  report: ServerReport,
  { colour = false }: { colour?: boolean } = {},
): string {
  const paint = (status: CheckStatus, text: string) =>
    colour ? `${COLOUR[status]}${text}\u001b[0m` : text;
  const width = Math.max(...report.checks.map((check) => check.id.length), 8);
  const lines = [`open-agent doctor: ${report.baseURL}`];
  const about = [
    report.server
      ? `${report.server.name}${report.server.version ? ` ${report.server.version}` : ''}`
      : undefined,
    report.model ? `model ${report.model}` : undefined,
  ].filter(Boolean);
  if (about.length > 0) lines.push(about.join(' · '));
  lines.push('');
  for (const check of report.checks) {
    lines.push(
      `${paint(check.status, MARK[check.status])}  ${check.id.padEnd(width)}  ${check.detail}`,
    );
    if (check.fix !== undefined) lines.push(`${' '.repeat(width + 8)}fix: ${check.fix}`);
  }
  const count = (status: CheckStatus) =>
    report.checks.filter((check) => check.status === status).length;
  lines.push('');
  lines.push(
    `${count('pass')} passed, ${count('warn')} warning${count('warn') === 1 ? '' : 's'}, ${count('fail')} failed · ${report.generations} generation${report.generations === 1 ? '' : 's'}, at most ${report.maxOutputTokens} output tokens`,
  );
  return lines.join('\n');
}
