import { z } from 'zod';
import { AGENT_ERROR_CODES } from '../errors/agent-error.js';
import { messageSchema } from '../types/message-schema.js';

// Apart from conversation-state.ts so that an app that never restores a snapshot (only
// `query()`) does not ship these schemas: building them is a module-level zod call that
// bundlers must keep wherever the module is imported.

const usageSchema = z.object({
  promptTokens: z.number(),
  completionTokens: z.number(),
  totalTokens: z.number(),
  estimated: z.boolean().optional(),
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
    code: z.enum(AGENT_ERROR_CODES).optional(),
    announced: z.boolean(),
  }),
]);

/** Validates a snapshot read back from JSON (storage, another page load). */
export const snapshotSchema = z.object({
  version: z.literal(1),
  messages: z.array(messageSchema),
  round: z.object({ calls: z.array(roundCallSchema) }).nullable(),
  iterationCount: z.number().int().nonnegative(),
  usage: usageSchema,
  finishReason: z.string().nullable(),
  modelCallDue: z.boolean(),
});
