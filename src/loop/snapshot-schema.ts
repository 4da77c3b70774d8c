import { AGENT_ERROR_CODES } from '../errors/agent-error.js';
import { jsonSchemaCheck, type Check, type JsonSchema } from '../types/json-schema-check.js';
import { messageSchema } from '../types/message-schema.js';
import type { ClientSnapshot, ConversationState } from './conversation-state.js';

// Apart from conversation-state.ts so that an app that never restores a snapshot (only
// `query()`) does not ship these schemas.

const usageSchema = {
  type: 'object',
  properties: {
    promptTokens: { type: 'number' },
    completionTokens: { type: 'number' },
    totalTokens: { type: 'number' },
    estimated: { type: 'boolean' },
  },
  required: ['promptTokens', 'completionTokens', 'totalTokens'],
};

function status(name: string, properties: JsonSchema, required: string[]): JsonSchema {
  return { if: { properties: { status: { const: name } } }, then: { properties, required } };
}

/** A `RoundCall`: its common fields, then what each status adds. */
const roundCallSchema = {
  type: 'object',
  properties: {
    toolUseId: { type: 'string' },
    name: { type: 'string' },
    input: { type: 'object' },
    status: { enum: ['ready', 'pending', 'settled'] },
  },
  required: ['toolUseId', 'name', 'input', 'status'],
  allOf: [
    status('pending', { reason: { enum: ['external', 'approval'] } }, ['reason']),
    status(
      'settled',
      { isError: { type: 'boolean' }, code: { enum: AGENT_ERROR_CODES }, announced: { type: 'boolean' } },
      ['content', 'isError', 'announced'],
    ),
  ],
};

const pausedProperties = {
  round: {
    type: ['object', 'null'],
    properties: { calls: { type: 'array', items: roundCallSchema } },
    required: ['calls'],
  },
  iterationCount: { type: 'integer', minimum: 0 },
  finishReason: { type: ['string', 'null'] },
};

/** Checks a snapshot read back from JSON (storage, another page load). */
export const checkSnapshot: Check<ClientSnapshot> = jsonSchemaCheck({
  type: 'object',
  properties: {
    version: { const: 1 },
    messages: { type: 'array', items: messageSchema },
    ...pausedProperties,
    usage: usageSchema,
    modelCallDue: { type: 'boolean' },
    forks: { type: 'array' },
  },
  required: ['version', 'messages', 'round', 'iterationCount', 'usage', 'finishReason', 'modelCallDue'],
});

/** Checks the part of a snapshot stored beside a paused conversation's messages. */
export const checkPaused: Check<Pick<ConversationState, 'round' | 'iterationCount' | 'finishReason'>> =
  jsonSchemaCheck({
    type: 'object',
    properties: pausedProperties,
    required: ['round', 'iterationCount', 'finishReason'],
  });
