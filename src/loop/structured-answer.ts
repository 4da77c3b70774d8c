import { AgentError, errorMessage } from '../errors/agent-error.js';
import type { AssistantTurn } from '../stream/aggregate-stream.js';
import type { ChatRequest } from '../types/chat-request.js';
import type { Message } from '../types/message.js';
import { jsonSchemaCheck } from '../types/json-schema-validator.js';
import {
  describeIssues,
  isStandardSchema,
  standardValidate,
  type Check,
  type JsonSchema,
} from '../types/schema-check.js';
import type { ResponseFormat } from './response-format.js';

/** The `response_format` of OpenAI-compatible servers, as every backend receives it. */
export interface JsonSchemaResponseFormat {
  type: 'json_schema';
  json_schema: { name: string; schema: JsonSchema; strict: true };
}

interface Compiled {
  field: JsonSchemaResponseFormat;
  check: Check<unknown>;
}

const compiled = new WeakMap<ResponseFormat, Compiled>();

/**
 * What the model step does for a `responseFormat`: put it on the request, read the answer.
 * This module is loaded by `import()` only when an app sets `responseFormat`.
 *
 * @throws TypeError for a schema with no JSON Schema (zod/mini).
 */
export function structuredAnswers(format: ResponseFormat): {
  request(state: { messages: readonly Message[] }, request: ChatRequest): ChatRequest;
  /** The answer of a response without tool calls (`undefined` for one with calls). */
  read(turn: AssistantTurn): StructuredAnswer | undefined;
} {
  compile(format);
  return {
    request: (state, request) =>
      withResponseFormat(request, format, state.messages.at(-1)?.role === 'tool'),
    read: (turn) =>
      turn.toolCalls.length + turn.invalidToolCalls.length > 0
        ? undefined
        : readStructuredAnswer(format, turn.text, turn.finishReason),
  };
}

/**
 * The request with the format, when this call is one that answers: a call that offers no
 * tools, or the call after a round of tool results (sent without the tools). A call that
 * offers tools goes without it: vLLM then constrains the whole output to the schema and no
 * call can be written (vllm-project/vllm#39929), Ollama's `format` is a grammar over
 * the whole output as well (read from its docs, not run here), and WebLLM
 * refuses a `response_format` beside tools (`CustomResponseFormatError`).
 *
 * @throws TypeError for a schema with no JSON Schema (zod/mini).
 */
function withResponseFormat(
  request: ChatRequest,
  format: ResponseFormat,
  afterTools: boolean,
): ChatRequest {
  const offersTools = request.tools !== undefined && request.tool_choice !== 'none';
  if (offersTools && !afterTools) return request;
  const { field } = compile(format);
  if (!offersTools) return { ...request, response_format: field };
  const { tools: _tools, tool_choice: _choice, parallel_tool_calls: _parallel, ...rest } = request;
  return { ...rest, response_format: field };
}

/** The parsed, validated answer, or the `VALIDATION_FAILED` error (with the raw `text` in its context). */
export type StructuredAnswer =
  { success: true; value: unknown } | { success: false; error: AgentError };

/**
 * Parses `text` as JSON (inside a Markdown code fence, too: what a server that ignored the
 * format may send) and validates it with the format's schema.
 */
function readStructuredAnswer(
  format: ResponseFormat,
  text: string,
  finishReason: string,
): StructuredAnswer {
  const { check } = compile(format);
  const name = format.name ?? 'response';
  const context = { text, finishReason, name };
  let value: unknown;
  try {
    value = JSON.parse(unfenced(text));
  } catch (error) {
    const cut = finishReason === 'length' ? ' (the response was cut off at maxTokens)' : '';
    return failure(`The answer is not JSON${cut}: ${errorMessage(error)}`, context, error);
  }
  const result = check(value);
  if (result.success) return { success: true, value: result.data };
  return failure(
    `The answer does not match the "${name}" schema: ${describeIssues(result.issues, '', 10)}`,
    context,
  );
}

const IGNORED_HINT =
  'A server that ignores response_format (older versions) is not constrained to the schema.';

/** `context.problem` is the message without the hint: what a model is told (executeAgent's json mode). */
function failure(
  problem: string,
  context: Record<string, unknown>,
  cause?: unknown,
): StructuredAnswer {
  return {
    success: false,
    error: new AgentError('VALIDATION_FAILED', `${problem}. ${IGNORED_HINT}`, {
      context: { ...context, problem },
      ...(cause === undefined ? {} : { cause }),
    }),
  };
}

function unfenced(text: string): string {
  const fenced = /^\s*```[a-zA-Z]*\s*\n([\s\S]*?)\n\s*```\s*$/.exec(text);
  return fenced?.[1] ?? text;
}

function compile(format: ResponseFormat): Compiled {
  let entry = compiled.get(format);
  if (entry) return entry;
  const name = format.name ?? 'response';
  const { schema } = format;
  let jsonSchema: JsonSchema;
  let check: Check<unknown>;
  if (isStandardSchema(schema)) {
    const converter = schema['~standard'].jsonSchema;
    if (!converter) {
      throw new TypeError(
        `responseFormat: a ${schema['~standard'].vendor} schema that cannot render JSON Schema (zod/mini): pass z.toJSONSchema(schema)`,
      );
    }
    jsonSchema = converter.input({ target: 'draft-2020-12' });
    check = (value) => standardValidate(schema, value);
  } else {
    jsonSchema = schema;
    check = jsonSchemaCheck(schema);
  }
  // llama.cpp's grammar converter and some templates choke on unknown top-level keys.
  const { $schema: _dropped, ...sent } = jsonSchema;
  entry = {
    field: { type: 'json_schema', json_schema: { name, schema: sent, strict: true } },
    check,
  };
  compiled.set(format, entry);
  return entry;
}
