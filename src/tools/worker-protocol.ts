import { isAgentErrorCode, type AgentErrorJSON } from '../errors/agent-error.js';
import { isRecord } from '../types/is-record.js';

/**
 * The messages between a page and a tool worker, both directions, in one place.
 *
 * Page → worker: `tool-call` (run a tool), `tool-cancel` (abort its signal).
 * Worker → page: `tools-ready` (once, when `exposeTools` listens: calls posted before it
 * are queued by the page, so a worker may finish async setup first), then one `tool-result`
 * or `tool-error` per call, matched by `id`. Many calls may be in flight at once.
 *
 * Types are prefixed `tool-` so a worker can share its channel with the app's own messages:
 * anything that does not parse is ignored, never answered.
 */

/** Run tool `name` on `input` (already validated on the page). */
export interface ToolCallMessage {
  type: 'tool-call';
  id: number;
  name: string;
  input: Record<string, unknown>;
  toolUseId: string;
}

/** Abort the handler's signal for call `id`; `reason` becomes `signal.reason`. */
export interface ToolCancelMessage {
  type: 'tool-cancel';
  id: number;
  reason: AgentErrorJSON;
}

/** `exposeTools` is listening: the page may post calls. */
export interface ToolsReadyMessage {
  type: 'tools-ready';
}

/** Call `id` returned `value` (structured-cloned). */
export interface ToolResultMessage {
  type: 'tool-result';
  id: number;
  value: unknown;
}

/** Call `id` failed; rebuilt on the page with `AgentError.fromJSON`, code kept. */
export interface ToolErrorMessage {
  type: 'tool-error';
  id: number;
  error: AgentErrorJSON;
}

/** What the page posts to a tool worker. */
export type HostMessage = ToolCallMessage | ToolCancelMessage;

/** What a tool worker posts to the page. */
export type WorkerMessage = ToolsReadyMessage | ToolResultMessage | ToolErrorMessage;

/** A message received by a tool worker, or `undefined` for anything else. */
export function parseHostMessage(data: unknown): HostMessage | undefined {
  if (!isRecord(data) || !isCallId(data.id)) return undefined;
  switch (data.type) {
    case 'tool-call':
      return typeof data.name === 'string' &&
        isRecord(data.input) &&
        typeof data.toolUseId === 'string'
        ? {
            type: 'tool-call',
            id: data.id,
            name: data.name,
            input: data.input,
            toolUseId: data.toolUseId,
          }
        : undefined;
    case 'tool-cancel':
      return isErrorJSON(data.reason)
        ? { type: 'tool-cancel', id: data.id, reason: data.reason }
        : undefined;
    default:
      return undefined;
  }
}

/** A message received from a tool worker, or `undefined` for anything else. */
export function parseWorkerMessage(data: unknown): WorkerMessage | undefined {
  if (!isRecord(data)) return undefined;
  if (data.type === 'tools-ready') return { type: 'tools-ready' };
  if (!isCallId(data.id)) return undefined;
  switch (data.type) {
    case 'tool-result':
      return { type: 'tool-result', id: data.id, value: data.value };
    case 'tool-error':
      return isErrorJSON(data.error)
        ? { type: 'tool-error', id: data.id, error: data.error }
        : undefined;
    default:
      return undefined;
  }
}

function isCallId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

function isErrorJSON(value: unknown): value is AgentErrorJSON {
  return (
    isRecord(value) &&
    value.name === 'AgentError' &&
    isAgentErrorCode(value.code) &&
    typeof value.message === 'string' &&
    (value.status === undefined || typeof value.status === 'number') &&
    (value.context === undefined || isRecord(value.context))
  );
}
