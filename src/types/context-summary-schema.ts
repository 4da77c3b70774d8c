import * as v from 'valibot';
import type { ContextSummary } from './context-summary.js';

/** Checks a {@link ContextSummary} read back (a snapshot, storage, an imported file). */
export const contextSummarySchema: v.GenericSchema<unknown, ContextSummary> = v.pipe(
  v.object({
    text: v.string(),
    covers: v.pipe(v.number(), v.integer(), v.minValue(1)),
    fingerprint: v.string(),
    createdAt: v.number(),
    model: v.optional(v.string()),
  }),
  v.transform((summary): ContextSummary => {
    const { model, ...rest } = summary;
    return model === undefined ? rest : { ...rest, model };
  }),
);
