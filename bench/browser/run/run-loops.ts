import { floorLoop } from './floor-loop.js';
import { openAgentLoop, openAgentNewLoop } from './open-agent-loop.js';
import { openAILoop } from './openai-loop.js';
import { transportLoop } from './transport-loop.js';
import type { RunOutcome, Scenario } from './run-scenarios.js';

/** One run of a scenario against the fake server at `baseURL` (…/v1). `observe` hears the text length as it grows. */
export type RunLoop = (options: {
  baseURL: string;
  scenario: Scenario;
  observe?: (textLength: number) => void;
}) => Promise<RunOutcome>;

/**
 * The loops a `run` cell can time: the floor, `Client.run` on one reused Client and on a new
 * Client per run, the `openai` SDK by hand, and our transport and stream reader alone.
 */
export const RUN_LOOPS = {
  floor: floorLoop,
  'open-agent': openAgentLoop,
  'open-agent-new': openAgentNewLoop,
  openai: openAILoop,
  transport: transportLoop,
} satisfies Record<string, RunLoop>;

export type RunLoopName = keyof typeof RUN_LOOPS;

/** The loop named `name`; throws for another name. */
export function runLoop(name: string): RunLoop {
  if (!Object.hasOwn(RUN_LOOPS, name)) throw new Error(`no run loop named ${name}`);
  return RUN_LOOPS[name as RunLoopName]; // checked just above
}
