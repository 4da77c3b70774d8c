import type { FinishReason } from '../types/events.js';
import type { Message } from '../types/message.js';

/** What a {@link LoopStrategy} is asked before each continuation after a round of tools. */
export interface LoopState {
  /** Rounds of tool execution done since the user's prompt. */
  iterationCount: number;
  /** The conversation so far (a copy). */
  messages: readonly Message[];
  /** The finish reason of the last model response. */
  finishReason: FinishReason | null;
}

/** Returns `true` to make another model call. */
export type LoopStrategy = (state: LoopState) => boolean;

/**
 * Continue while fewer than `max` rounds of tools ran.
 * @example new Client({ ...options, loopStrategy: maxIterations(10) })
 */
export function maxIterations(max: number): LoopStrategy {
  return ({ iterationCount }) => iterationCount < max;
}

/**
 * Continue until the model finishes with one of `reasons`.
 * @example untilFinishReason(['stop', 'length'])
 */
export function untilFinishReason(reasons: readonly FinishReason[]): LoopStrategy {
  return ({ finishReason }) => finishReason === null || !reasons.includes(finishReason);
}

/**
 * Continue only while every strategy agrees.
 * @example combineStrategies([maxIterations(8), untilFinishReason(['length'])])
 */
export function combineStrategies(strategies: readonly LoopStrategy[]): LoopStrategy {
  return (state) => strategies.every((strategy) => strategy(state));
}
