import * as z from 'zod/mini';
import { AGENT_ERROR_CODES } from '../errors/agent-error.js';
import { messageSchema } from '../types/message-schema.js';

// Apart from conversation-state.ts so that an app that never restores a snapshot (only
// `query()`) does not ship these schemas: building them is a module-level zod call that
// bundlers must keep wherever the module is imported. zod/mini, not classic, for the same reason:
// classic schemas carry every method, so none of zod classic tree-shakes.

const usageSchema = z.object({
  promptTokens: z.number(),
  completionTokens: z.number(),
  totalTokens: z.number(),
  estimated: z.optional(z.boolean()),
});

const callBase = {
  toolUseId: z.string(),
  name: z.string(),
  input: z.record(z.string(), z.unknown()),
};
const roundCallSchema = z.union([
  z.object({ ...callBase, status: z.literal('ready') }),
  z.object({ ...callBase, status: z.literal('pending'), reason: z.enum(['external', 'approval']) }),
  z.object({
    ...callBase,
    status: z.literal('settled'),
    content: z.unknown(),
    isError: z.boolean(),
    code: z.optional(z.enum(AGENT_ERROR_CODES)),
    announced: z.boolean(),
  }),
]);

/** Validates a snapshot read back from JSON (storage, another page load). */
export const snapshotSchema = z.object({
  version: z.literal(1),
  messages: z.array(messageSchema),
  round: z.nullable(z.object({ calls: z.array(roundCallSchema) })),
  iterationCount: z.int().check(z.nonnegative()),
  usage: usageSchema,
  finishReason: z.nullable(z.string()),
  modelCallDue: z.boolean(),
});

/** The part of a snapshot stored beside a paused conversation's messages. */
export const pausedSchema = z.pick(snapshotSchema, {
  round: true,
  iterationCount: true,
  finishReason: true,
});
