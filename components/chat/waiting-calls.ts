import type { Client, Tool } from '../../src/index.js';
import type { AgentToolCallDetail } from './chat-events.js';
import { asError } from './error-text.js';
import { denialText, now, settle } from '../transcript/tool-part.js';
import type { ToolPart, Transcript } from '../transcript/transcript.js';

/** What {@link WaitingCalls} needs from the chat session. */
export interface WaitingCallsPort {
  readonly client: Client | undefined;
  readonly running: boolean;
  readonly transcript: Transcript;
  /** Resolves when the current run (if any) has ended. */
  readonly settled: Promise<unknown>;
  /** The element's tools (to run a waiting call with its `execute`). */
  tools(): readonly Tool[];
  /** Dispatches `agent-tool-call`; `false` when a listener called `preventDefault()`. */
  emit(detail: AgentToolCallDetail): boolean;
  /** Records a decision on the Client; a throw shows as the error banner. */
  record(action: () => void): boolean;
  touch(part: ToolPart): void;
  /** Calls the model again once no call waits any more. */
  resumeWhenSettled(client: Client): Promise<boolean>;
  /** Lets Stop abort a call run by Run; returns the undo. */
  track(controller: AbortController): () => void;
}

/**
 * The answers to tool calls that wait — the user's (Approve, Deny, Run, Skip) and the page's
 * (`submitToolResult`) — recorded on the Client, shown on the cards, and the run resumed once
 * none waits. Nothing waits silently: {@link offer} gives each waiting call a way on.
 */
export class WaitingCalls {
  readonly #port: WaitingCallsPort;

  constructor(port: WaitingCallsPort) {
    this.#port = port;
  }

  /**
   * After a run paused (or a paused conversation loaded): a call to a tool the element has
   * (`execute`, automatic runs off) gets Run / Skip on its card; one to a tool without
   * `execute` goes to the page as an `agent-tool-call` event.
   */
  offer(): void {
    const port = this.#port;
    for (const call of port.client?.pending ?? []) {
      const part = port.transcript.findTool(call.toolUseId);
      if (call.reason !== 'external' || !part || part.status !== 'external') continue;
      if (this.#execute(call.name)) part.runnable = true;
      else
        part.handled = !port.emit({
          toolUseId: call.toolUseId,
          name: call.name,
          input: call.input,
        });
      port.touch(part);
    }
  }

  async approve(part: ToolPart): Promise<boolean> {
    const client = await this.#idleClient();
    if (!client) return false;
    let input = part.input;
    if (part.draft !== undefined) {
      const parsed = parseObject(part.draft);
      if (typeof parsed === 'string') {
        part.draftError = parsed;
        this.#port.touch(part);
        return false;
      }
      input = parsed;
    }
    if (!this.#port.record(() => client.approve(part.id, { input }))) return false;
    Object.assign(part, { status: 'running', input, startedAt: now() });
    delete part.draft;
    delete part.draftError;
    this.#port.touch(part);
    return this.#port.resumeWhenSettled(client);
  }

  /** Denies a call (waiting for approval, or for a result: Skip says `skipped by the user`). */
  async deny(part: ToolPart, reason = 'denied by the user'): Promise<boolean> {
    const client = await this.#idleClient();
    if (!client || !this.#port.record(() => client.deny(part.id, reason))) return false;
    Object.assign(part, { status: 'denied', error: denialText(reason) });
    delete part.runnable;
    delete part.draft;
    this.#port.touch(part);
    return this.#port.resumeWhenSettled(client);
  }

  /**
   * Runs a waiting call with its tool's `execute` (automatic runs are off and the user pressed
   * Run), then gives the Client its result. A throw is the result, as an error.
   */
  async run(part: ToolPart): Promise<boolean> {
    const client = await this.#idleClient();
    const execute = this.#execute(part.name);
    if (!client || !execute || part.status !== 'external') return false;
    Object.assign(part, { status: 'running', startedAt: now() });
    delete part.runnable;
    this.#port.touch(part);
    const controller = new AbortController();
    const untrack = this.#port.track(controller);
    let content: unknown;
    let isError = false;
    const started = now();
    try {
      content = await execute(part.input, { signal: controller.signal, toolUseId: part.id });
    } catch (error) {
      content = asError(error).message;
      isError = true;
    } finally {
      untrack();
    }
    return this.submitToolResult(part.id, content, {
      isError,
      durationMs: Math.round(now() - started),
    });
  }

  /** The result of a waiting call (the page's answer to `agent-tool-call`, or Run's). */
  async submitToolResult(
    toolUseId: string,
    content: unknown,
    options: { isError?: boolean; durationMs?: number },
  ): Promise<boolean> {
    const client = await this.#idleClient();
    if (!client || !this.#port.record(() => client.addToolResult(toolUseId, content, options)))
      return false;
    const part = this.#port.transcript.findTool(toolUseId);
    if (part) {
      settle(part, options.isError === true ? 'error' : 'done', { result: content });
      delete part.runnable;
      this.#port.touch(part);
    }
    return this.#port.resumeWhenSettled(client);
  }

  /** The Client once no run goes on. The buttons show on `awaiting_tool_results`, a moment before the run's `done`. */
  async #idleClient(): Promise<Client | undefined> {
    await this.#port.settled;
    return this.#port.running ? undefined : this.#port.client;
  }

  #execute(name: string): Tool['execute'] {
    return this.#port.tools().find((tool) => tool.name === name)?.execute;
  }
}

/** The edited arguments as an object, or what is wrong with them. */
function parseObject(json: string): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    return `Not valid JSON: ${asError(error).message}`;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'The arguments must be a JSON object';
  return value as Record<string, unknown>; // checked just above: a plain object
}
