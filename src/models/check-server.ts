import { createFetchBackend } from '../backend/fetch-backend.js';
import { createSSEChunkReader } from '../backend/sse-chunk-reader.js';
import { query } from '../loop/query.js';
import { tool } from '../tools/tool.js';
import type { ServerIdentity } from './local-models.js';

/** What one check concluded. */
export type CheckStatus = 'pass' | 'warn' | 'fail';

/** The checks `checkServer` makes, in the order it reports them. */
export type ServerCheckId =
  | 'reachable'
  | 'cors'
  | 'local-network-access'
  | 'server'
  | 'model'
  | 'context'
  | 'truncation'
  | 'tool-calls'
  | 'tool-call-ids'
  | 'tool-arguments'
  | 'parallel-tool-calls'
  | 'reasoning'
  | 'usage'
  | 'images'
  | 'response-format'
  | 'cleanup';

/** One check: what was seen, and for a `warn` or `fail` what to do about it. */
export interface ServerCheck {
  id: ServerCheckId;
  status: CheckStatus;
  /** What was seen, in one or two sentences. */
  detail: string;
  /** What to do (a server flag, an environment variable, a model to pull). Every `fail` has one. */
  fix?: string;
}

/** What `checkServer` found out about a server and one of its models. */
export interface ServerReport {
  /** The OpenAI-compatible root that was checked. */
  baseURL: string;
  /** Which server answered (absent when nothing did). */
  server?: ServerIdentity;
  /** The model checked (the one asked for, else the loaded one, else the first listed). */
  model?: string;
  checks: ServerCheck[];
  /** Generations made (each a short answer; a truncation probe reads a long prompt and writes 1 token). */
  generations: number;
  /** The most output tokens those generations could take (each request's `max_tokens`, summed). */
  maxOutputTokens: number;
  /** How long the checks took. */
  elapsedMs: number;
}

/** Options for {@link checkServer}. */
export interface CheckServerOptions {
  /** The server: `http://localhost:11434` or its OpenAI-compatible root. */
  baseURL: string;
  /** The model to check; default: the loaded one, else the first the server lists. */
  model?: string;
  /** The fetch to use. Default `globalThis.fetch`. */
  fetch?: typeof globalThis.fetch;
  /**
   * The page origin whose access to check (CORS, Local Network Access). Default in a page:
   * its own origin; in Node none (those checks are left out).
   */
  origin?: string;
  /** Sent as `Authorization: Bearer …`. */
  apiKey?: string;
  signal?: AbortSignal;
}

/**
 * Tells what a server and model can do, and why something does not work: is the server
 * reachable (and from this page: CORS, Local Network Access), which server and version, does
 * the model exist and is it loaded, its context window (and whether Ollama cuts a longer
 * prompt silently), tool calling (native streamed `tool_calls` or calls written as text,
 * ids, arguments streamed or whole, parallel calls), reasoning (which field or tags), usage,
 * images, `response_format`. Every `fail` says how to fix it. It makes at most five short
 * generations (at most 1 + 256 + 64 + 16 + 64 output tokens: `report.maxOutputTokens`),
 * changes no setting, pulls nothing, and unloads the model again if the checks loaded it.
 * Its code loads on first call.
 *
 * @throws AgentError `EXECUTION_CANCELLED` on abort; a server's failure is a `fail` in the report.
 * @example
 * const report = await checkServer({ baseURL: 'http://localhost:11434', model: 'qwen3:4b' });
 * for (const check of report.checks) console.log(check.status, check.id, check.detail, check.fix ?? '');
 */
export async function checkServer(options: CheckServerOptions): Promise<ServerReport> {
  const { runServerChecks } = await import('./run-server-checks.js');
  return runServerChecks(options, { query, tool, createFetchBackend, createSSEChunkReader });
}
