import { AGENT_ERROR_CODES } from '../errors/agent-error.js';
import * as v from 'valibot';
import type { Check } from '../types/schema-check.js';
import { messageSchema } from '../types/message-schema.js';
import { jsonObjectSchema, valibotCheck } from '../types/valibot-check.js';
import type { ClientSnapshot, ConversationState } from './conversation-state.js';

// Apart from conversation-state.ts so that an app that never restores a snapshot (only
// `query()`) does not ship these schemas.

const usageSchema = v.looseObject({
  promptTokens: v.number(),
  completionTokens: v.number(),
  totalTokens: v.number(),
  estimated: v.optional(v.boolean()),
});

const call = { toolUseId: v.string(), name: v.string(), input: jsonObjectSchema };

/** A `RoundCall`: its common fields, and what each status adds. */
const roundCallSchema = v.variant('status', [
  v.looseObject({ ...call, status: v.literal('ready') }),
  v.looseObject({
    ...call,
    status: v.literal('pending'),
    reason: v.picklist(['external', 'approval']),
  }),
  v.looseObject({
    ...call,
    status: v.literal('settled'),
    content: v.unknown(),
    isError: v.boolean(),
    code: v.optional(v.picklist(AGENT_ERROR_CODES)),
    announced: v.boolean(),
  }),
]);

const pausedEntries = {
  round: v.nullable(v.looseObject({ calls: v.array(roundCallSchema) })),
  iterationCount: v.pipe(v.number(), v.integer(), v.minValue(0)),
  finishReason: v.nullable(v.string()),
};

/** Checks a snapshot read back from JSON (storage, another page load). */
export const checkSnapshot: Check<ClientSnapshot> = valibotCheck(
  v.looseObject({
    version: v.literal(1),
    messages: v.array(messageSchema),
    ...pausedEntries,
    usage: usageSchema,
    modelCallDue: v.boolean(),
    forks: v.optional(v.array(v.unknown())),
    // Checked where they are used (summarize/, summariesFor): this schema loads with every Client.
    summaries: v.optional(v.array(v.unknown())),
  }),
);

/** Checks the part of a snapshot stored beside a paused conversation's messages. */
export const checkPaused: Check<
  Pick<ConversationState, 'round' | 'iterationCount' | 'finishReason'>
> = valibotCheck(v.looseObject(pausedEntries));
