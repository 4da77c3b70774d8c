import type { ChatRequest, ToolDefinition } from '../../types/chat-request.js';
import { isRecord } from '../../types/is-record.js';
import { contentText, type Message } from '../../types/message.js';

/**
 * Tools for engines without native tool calling (Chrome's Prompt API; llama.cpp in wllama,
 * whose `tools` are not grammar-enforced, so small models rarely call them): the model is told
 * about the tools in the system prompt and its output is constrained by a JSON Schema to
 * either `{"answer": "…"}` or `{"tool_calls": [{"name": …, "arguments": {…}}]}` with each
 * call's arguments held to its tool's schema. {@link ConstrainedAnswerReader} turns that JSON
 * back into standard text and tool-call chunks, so the loop, approvals and tool cards see an
 * ordinary answer.
 */
export interface ConstrainedRequest {
  /** The conversation as the engine can read it: tool turns as text, the tools in the system prompt. */
  messages: Message[];
  /** The JSON Schema the engine constrains its output to. */
  schema: Record<string, unknown>;
}

/**
 * At most this many calls in one answer: a small model decoding greedily can repeat a call
 * until `max_tokens` (a random one always does), which would cut the JSON off and lose them all.
 */
const MAX_CALLS = 4;

/**
 * The constrained form of `request`, or `undefined` when it offers no tools (or
 * `tool_choice: 'none'`): then only {@link textOnlyMessages} apply.
 */
export function constrainTools(request: ChatRequest): ConstrainedRequest | undefined {
  const offered = offeredTools(request);
  if (offered === undefined) return undefined;
  const { tools, callsOnly } = offered;
  const calls = {
    type: 'object',
    properties: {
      tool_calls: {
        type: 'array',
        minItems: 1,
        maxItems: request.parallel_tool_calls === false ? 1 : MAX_CALLS,
        items: { anyOf: tools.map(callSchema) },
      },
    },
    required: ['tool_calls'],
    additionalProperties: false,
  };
  const answer = {
    type: 'object',
    properties: { answer: { type: 'string' } },
    required: ['answer'],
    additionalProperties: false,
  };
  return {
    messages: withInstructions(
      textOnlyMessages(request.messages),
      toolInstructions(tools, callsOnly),
    ),
    schema: callsOnly ? calls : { anyOf: [answer, calls] },
  };
}

/** The tools the request lets the model call, and whether it must call one. */
function offeredTools(
  request: ChatRequest,
): { tools: ToolDefinition[]; callsOnly: boolean } | undefined {
  const all = request.tools ?? [];
  const choice = request.tool_choice;
  if (all.length === 0 || choice === 'none') return undefined;
  if (choice === undefined || choice === 'auto') return { tools: all, callsOnly: false };
  if (choice === 'required') return { tools: all, callsOnly: true };
  const named = all.filter((tool) => tool.function.name === choice.function.name);
  return { tools: named.length > 0 ? named : all, callsOnly: true };
}

function callSchema(tool: ToolDefinition): Record<string, unknown> {
  return {
    type: 'object',
    properties: {
      name: { const: tool.function.name },
      arguments: withoutMetaKeys(tool.function.parameters),
    },
    required: ['name', 'arguments'],
    additionalProperties: false,
  };
}

/** A tool's parameters without `$schema` (engines' schema-to-grammar converters reject some drafts). */
function withoutMetaKeys(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _schema, ...rest } = schema;
  return rest;
}

/**
 * What the model is told: one line per tool (name, description, its parameters' JSON Schema)
 * and the two shapes its answer may take. Measured in `npm run bench` (prompt tokens).
 */
export function toolInstructions(tools: readonly ToolDefinition[], callsOnly: boolean): string {
  const lines = tools.map(
    (tool) =>
      `- ${tool.function.name}: ${tool.function.description} Arguments: ${JSON.stringify(withoutMetaKeys(tool.function.parameters))}`,
  );
  const shapes = callsOnly
    ? 'Reply with JSON only: {"tool_calls": [{"name": "<tool>", "arguments": {...}}]}.'
    : 'Reply with JSON only: {"answer": "<your reply>"}, or, to use tools, {"tool_calls": [{"name": "<tool>", "arguments": {...}}]}.';
  return `You can use these tools:\n${lines.join('\n')}\n${shapes} Tool results come back in a user message starting "Tool results:".`;
}

function withInstructions(messages: Message[], instructions: string): Message[] {
  const first = messages[0];
  if (first?.role === 'system')
    return [
      { role: 'system', content: `${first.content}\n\n${instructions}` },
      ...messages.slice(1),
    ];
  return [{ role: 'system', content: instructions }, ...messages];
}

/**
 * The conversation as an engine without tool roles reads it: only system, user and assistant
 * messages with text. A call turn becomes the JSON the model writes for calls; the results of
 * one round become one user message ("Tool results:" with each call's name and result).
 */
export function textOnlyMessages(messages: readonly Message[]): Message[] {
  const names = new Map<string, string>();
  const out: Message[] = [];
  let results: string[] = [];
  const flush = () => {
    if (results.length === 0) return;
    out.push({ role: 'user', content: `Tool results:\n${results.join('\n')}` });
    results = [];
  };
  for (const message of messages) {
    if (message.role === 'tool') {
      const name = names.get(message.tool_call_id) ?? 'tool';
      const content =
        typeof message.content === 'string' ? message.content : contentText(message.content);
      results.push(`${name}: ${content}`);
      continue;
    }
    flush();
    if (message.role === 'user') {
      out.push({ role: 'user', content: contentText(message.content) });
    } else if (message.role === 'assistant') {
      const calls = message.tool_calls ?? [];
      for (const call of calls) names.set(call.id, call.function.name);
      const text = message.content ?? '';
      if (calls.length === 0) {
        out.push({ role: 'assistant', content: text });
        continue;
      }
      const json = JSON.stringify({
        tool_calls: calls.map((call) => ({
          name: call.function.name,
          arguments: parsedArguments(call.function.arguments),
        })),
      });
      out.push({ role: 'assistant', content: text === '' ? json : `${text.trimEnd()}\n${json}` });
    } else out.push(message);
  }
  flush();
  return out;
}

function parsedArguments(json: string): unknown {
  try {
    const value: unknown = JSON.parse(json);
    return isRecord(value) ? value : {};
  } catch {
    return {}; // our own echo is always JSON; a hand-edited history may not be
  }
}
