import type { Figure } from './figure.js';

/** Formats figures as a fixed-width table: label, value, target, status. */
export function formatTable(figures: readonly Figure[]): string {
  const rows = figures.map((figure) => [
    figure.label,
    figure.value === null ? '—' : `${formatNumber(figure.value)} ${figure.unit}`,
    figure.target ? `${figure.target.op} ${formatNumber(figure.target.limit)} ${figure.unit}` : '',
    figure.status,
  ]);
  const header = ['figure', 'measured', 'target', 'result'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) =>
        column === 1 || column === 2
          ? cell.padStart(widths[column] ?? 0)
          : cell.padEnd(widths[column] ?? 0),
      )
      .join('  ')
      .trimEnd();
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/** Notes of figures that have one, numbered in table order. */
export function formatNotes(figures: readonly Figure[]): string {
  return figures
    .filter((figure) => figure.note !== undefined)
    .map((figure) => `- ${figure.label}: ${figure.note}`)
    .join('\n');
}

function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  const magnitude = Math.abs(value);
  const digits = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3;
  return value.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}
