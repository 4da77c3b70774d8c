/** One measured figure, as printed in the table and written to bench/results/latest.json. */
export interface Figure {
  /** Stable key for comparing runs, e.g. `stream.text.ratio`. */
  id: string;
  /** What was measured, in words. */
  label: string;
  /** The figure; `null` when it could not be measured (see `note`). */
  value: number | null;
  unit: string;
  /** Absent for informational figures. */
  target?: Target;
  status: 'PASS' | 'MISS' | 'INFO' | 'SKIP';
  /** How it was measured, or why it was skipped. */
  note?: string;
}

/** `value` must be below (`<`), at most (`<=`) or at least (`>=`) `limit`. */
export interface Target {
  op: '<' | '<=' | '>=';
  limit: number;
}

/** A figure with a target: PASS or MISS from the value. */
export function checked(
  fields: Omit<Figure, 'status' | 'target' | 'value'> & { value: number; target: Target },
): Figure {
  const { value, target } = fields;
  const pass = Number.isFinite(value) && meets(value, target);
  return { ...fields, status: pass ? 'PASS' : 'MISS' };
}

function meets(value: number, target: Target): boolean {
  switch (target.op) {
    case '<':
      return value < target.limit;
    case '<=':
      return value <= target.limit;
    case '>=':
      return value >= target.limit;
  }
}

/** A figure without a target, printed for context. */
export function info(fields: Omit<Figure, 'status' | 'target'>): Figure {
  return { ...fields, status: 'INFO' };
}

/** A figure that could not be measured in this run, with the reason in `note`. */
export function skipped(fields: Omit<Figure, 'status' | 'value'> & { note: string }): Figure {
  return { ...fields, value: null, status: 'SKIP' };
}
