/** `2.5 GB`, `740 MB`: sizes in the page's locale, decimal units as model pages write them. */
export function formatBytes(bytes: number, locale: string | undefined): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${new Intl.NumberFormat(locale, { maximumFractionDigits: value < 10 && unit > 0 ? 1 : 0 }).format(value)} ${units[unit] ?? 'B'}`;
}
