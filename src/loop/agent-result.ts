import type { AgentErrorCode } from '../errors/agent-error.js';
import type { Message } from '../types/message.js';
import type { Usage } from '../types/usage.js';
import type { CallbackError } from './agent-callbacks.js';

/** Where in an execution something happened. */
export interface AgentPosition {
  /** The attempt, from 1. */
  attempt: number;
  /** The iteration (model call) within the attempt, from 1. */
  iteration: number;
}

/** One rejected output: the message the model was given. */
export interface ValidationFailure {
  attempt: number;
  message: string;
}

/** Codes of failures that come from the server or the stream, thrown by the loop. */
export type TransportErrorCode = Exclude<
  AgentErrorCode,
  | 'MAX_ITERATIONS'
  | 'VALIDATION_FAILED'
  | 'SUBMIT_BEFORE_OUTPUT'
  | 'INVALID_RESPONSE'
  | 'EXECUTION_CANCELLED'
>;

/** Why an execution produced no output. Discriminated by `code`; each has its own context. */
export type ExecuteAgentError =
  | {
      /** An attempt used all its iterations without finalising an output. */
      code: 'MAX_ITERATIONS';
      message: string;
      context: { attempt: number; iterationCount: number; maxIterations: number };
    }
  | {
      /** Every attempt produced an output that failed validation. */
      code: 'VALIDATION_FAILED';
      message: string;
      context: { failures: ValidationFailure[] };
    }
  | {
      /** The attempt ended after `submit` was called with no output to submit. */
      code: 'SUBMIT_BEFORE_OUTPUT';
      message: string;
      context: AgentPosition;
    }
  | {
      /** A response called no tool (`text`: what it said instead), or the stream was unusable. */
      code: 'INVALID_RESPONSE';
      message: string;
      context: AgentPosition & { text?: string } & Record<string, unknown>;
    }
  | {
      /** The signal was aborted; `iteration` is the one running or about to start. */
      code: 'EXECUTION_CANCELLED';
      message: string;
      context: AgentPosition & { phase: 'iteration' };
    }
  | {
      /** The server or the network failed (`status` for HTTP errors), after the loop's retries. */
      code: TransportErrorCode;
      message: string;
      context: AgentPosition & { status?: number } & Record<string, unknown>;
    };

/** Facts about an execution, successful or not. */
export interface AgentMetadata {
  /** Summed over every iteration and attempt (`estimated` when a server sent no usage). */
  tokens: Usage;
  /** Attempts started. */
  attempts: number;
  /** Model calls completed, over all attempts. */
  iterations: number;
  latencyMs: number;
  /** Callbacks that threw, in order. */
  callbackErrors: CallbackError[];
  /** The conversation (without the system prompt): every attempt, in OpenAI format. */
  history: Message[];
}

/** What `executeAgent` resolves to; it never rejects for the failures in {@link ExecuteAgentError}. */
export type ExecuteAgentResult<Output> =
  | { ok: true; output: Output; metadata: AgentMetadata }
  | { ok: false; error: ExecuteAgentError; metadata: AgentMetadata };
