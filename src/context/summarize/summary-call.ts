import { AgentError, errorMessage, isAbortError, isAgentError } from '../../errors/agent-error.js';
import type { ChatBackend, ChatRequest, WaitReport } from '../../types/chat-request.js';
import type { Message } from '../../types/message.js';
import type { Usage } from '../../types/usage.js';
import { aggregateStream } from '../../stream/aggregate-stream.js';
import type { SummarizeSettings } from './summarize-options.js';

/** Characters of one tool result (or call's arguments) put before the summariser; longer ones are cut in the middle. */
const QUOTED_CHARS = 1_500;

/** What one summary call needs. */
export interface SummaryCallInput {
  backend: ChatBackend;
  model: string;
  settings: SummarizeSettings;
  /** The summary the new one extends (incremental: its messages are not read again). */
  previous: string | undefined;
  /** The messages after `previous` to fold in, whole turns. */
  messages: readonly Message[];
  /** Tokens the summary may take. */
  maxTokens: number;
  /** The run's signal: an abort cancels the run, it is not a failure to fall back from. */
  signal: AbortSignal | undefined;
  /** The loop's wait reports: what the transport says of this call, as phase `'summarizing'`. */
  onWaiting?: ((report: WaitReport) => void) | undefined;
  /**
   * What the call cost, told once the server has answered — also when the answer then fails
   * or is cut off (its prompt was read, its words written): the server's usage, or an estimate
   * marked so.
   */
  onUsage?: ((usage: Usage) => void) | undefined;
}

/** The phase of the `waiting` events yielded while a summary is written. */
export const SUMMARIZING_PHASE = 'summarizing';

/**
 * Makes the one model call that writes a summary: the instructions, then the previous
 * summary and the messages as a transcript. Resolves with the summary's text; its usage goes
 * to `onUsage`, whether the call succeeds or fails once the server has begun answering. The
 * transport's wait reports go to `onWaiting` as phase `'summarizing'`, so a slow server's wait
 * for the summary is announced like any other.
 * @throws AgentError the call's own error (`HTTP_ERROR`, `NETWORK_ERROR`, …), `NETWORK_ERROR`
 * past `settings.timeoutMs`, `INVALID_RESPONSE` for an empty answer, `EXECUTION_CANCELLED` when
 * `signal` aborts.
 */
export async function summaryCall(input: SummaryCallInput): Promise<string> {
  const timeout = AbortSignal.timeout(input.settings.timeoutMs);
  const signal = input.signal ? AbortSignal.any([input.signal, timeout]) : timeout;
  const request: ChatRequest = {
    model: input.model,
    messages: [
      { role: 'system', content: input.settings.instructions },
      { role: 'user', content: transcript(input.previous, input.messages) },
    ],
    stream: true,
    stream_options: { include_usage: true },
    temperature: 0.2,
    max_tokens: input.maxTokens,
  };
  // Once the server answers, the call costs its prompt and what it writes, finished or not.
  let answered = false;
  let written = '';
  let usage: Usage | undefined;
  try {
    const chunks = await input.backend.chat.completions.create(request, {
      signal,
      onWaiting: (report) => input.onWaiting?.({ phase: SUMMARIZING_PHASE, model: report.model }),
    });
    answered = true;
    const events = aggregateStream(chunks, { signal });
    let step = await events.next();
    while (step.done !== true) {
      if (step.value.type === 'text') written += step.value.text;
      step = await events.next();
    }
    const turn = step.value;
    usage = turn.usage;
    written = turn.text;
    const text = turn.text.trim();
    if (text === '') throw new AgentError('INVALID_RESPONSE', 'the summary call answered no text');
    return text;
  } catch (error) {
    if (input.signal?.aborted === true)
      throw new AgentError('EXECUTION_CANCELLED', 'The run was cancelled', { cause: error });
    if (timeout.aborted || isAbortError(error)) {
      throw new AgentError(
        'NETWORK_ERROR',
        `the summary call took longer than ${input.settings.timeoutMs} ms (contextPolicy's timeoutMs)`,
        { cause: error },
      );
    }
    if (isAgentError(error)) throw error;
    throw new AgentError('NETWORK_ERROR', errorMessage(error), { cause: error });
  } finally {
    // A server that reports no usage (or stopped before it did): estimated, like a chat turn's
    // (the estimate loads the first time).
    if (answered) {
      usage ??= (await import('../estimate-usage.js')).estimateUsage(request, {
        text: written,
        reasoning: '',
        toolCalls: [],
      });
      input.onUsage?.(usage);
    }
  }
}

/** The previous summary and the messages as plain text the model can summarise. */
export function transcript(previous: string | undefined, messages: readonly Message[]): string {
  const lines: string[] = [];
  if (previous !== undefined) lines.push(`Summary of the conversation before:\n${previous}`, '');
  lines.push(previous === undefined ? 'The conversation:' : 'What was said after it:');
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        lines.push(`System: ${message.content}`);
        break;
      case 'user':
        lines.push(`User: ${contentText(message.content)}`);
        break;
      case 'assistant':
        if (message.content) lines.push(`Assistant: ${message.content}`);
        for (const call of message.tool_calls ?? [])
          lines.push(`Assistant called ${call.function.name}(${quoted(call.function.arguments)})`);
        break;
      case 'tool': {
        const content =
          typeof message.content === 'string' ? message.content : contentText(message.content);
        lines.push(`Tool ${message.name ?? message.tool_call_id} returned: ${quoted(content)}`);
        break;
      }
      default:
        message satisfies never;
    }
  }
  lines.push('', 'Write the updated summary of the whole conversation so far.');
  return lines.join('\n');
}

function quoted(text: string): string {
  if (text.length <= QUOTED_CHARS) return text;
  const half = QUOTED_CHARS / 2;
  return `${text.slice(0, half)} […] ${text.slice(-half)}`;
}

/** A message's text parts, joined (like `contentText`, which lives in the first load: not imported by lazy code). */
function contentText(content: string | readonly { type: string; text?: string }[]): string {
  return typeof content === 'string'
    ? content
    : content
        .flatMap((part) => (part.type === 'text' && part.text !== undefined ? [part.text] : []))
        .join('\n\n');
}
