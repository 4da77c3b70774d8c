import { z } from 'zod';
import { tool, type Tool } from '../../src/index.js';
import { evaluateArithmetic } from './arithmetic.js';

/** An in-page calculator tool (no `eval`). */
export function calculatorTool(needsApproval: boolean): Tool {
  return tool({
    name: 'calculator',
    description:
      'Evaluates an arithmetic expression exactly: + - * / % ^, parentheses, sqrt, abs, round, ln, log, sin, cos, tan, pi, e.',
    input: z.object({ expression: z.string().min(1).describe('For example "12 * (3 + 4)"') }),
    needsApproval,
    execute: ({ expression }) => {
      const value = evaluateArithmetic(expression);
      if (!Number.isFinite(value)) throw new Error(`"${expression}" has no finite value`);
      return { expression, value: Number(value.toPrecision(15)) };
    },
  });
}
