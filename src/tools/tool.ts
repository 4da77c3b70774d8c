import { z } from 'zod';
import type { ToolDefinition } from '../types/chat-request.js';
import { validateInput, type InputValidator } from './validate-input.js';

/** A JSON Schema object, as sent to the model. */
export type JsonSchema = Record<string, unknown>;

/** What `execute` receives besides its input. */
export interface ToolContext {
  /** Aborted when the run is cancelled or the tool times out: pass it on to fetch & co. */
  signal: AbortSignal;
  /** The id of the call being executed. */
  toolUseId: string;
}

/** `true`, or a predicate over the validated input, to pause for the user's approval. */
export type NeedsApproval<Input> = boolean | ((input: Input) => boolean | Promise<boolean>);

/**
 * A tool the model can call. Build one with {@link tool}; its input is validated before
 * `execute` sees it. A tool without `execute` is *external*: the loop pauses for the caller.
 */
export interface Tool {
  readonly name: string;
  readonly description: string;
  /** The JSON Schema of the input, as sent to the model. */
  readonly parameters: JsonSchema;
  /** Runs the tool on validated input. Absent: an external tool. */
  readonly execute?: (input: Record<string, unknown>, context: ToolContext) => unknown;
  readonly needsApproval?: NeedsApproval<Record<string, unknown>>;
  /** Abort `execute` (and report `TOOL_TIMEOUT`) after this many milliseconds. */
  readonly timeoutMs?: number;
  /** Checks raw model arguments against the schema. */
  readonly validate: InputValidator;
}

type ObjectSchema = z.ZodObject | z.ZodType<Record<string, unknown>>;

/** The definition of a tool whose input is a zod schema: `execute` gets the parsed type. */
export interface ZodToolConfig<Schema extends ObjectSchema> {
  name: string;
  description: string;
  input: Schema;
  execute?: (input: z.output<Schema>, context: ToolContext) => unknown;
  needsApproval?: NeedsApproval<z.output<Schema>>;
  timeoutMs?: number;
}

/** The definition of a tool whose input is a plain JSON Schema object. */
export interface JsonSchemaToolConfig {
  name: string;
  description: string;
  input: JsonSchema;
  execute?: (input: Record<string, unknown>, context: ToolContext) => unknown;
  needsApproval?: NeedsApproval<Record<string, unknown>>;
  timeoutMs?: number;
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Defines a tool. `input` is a zod object schema (its JSON Schema comes from
 * `z.toJSONSchema`) or a plain JSON Schema object (validated with `z.fromJSONSchema`).
 *
 * @throws TypeError for a name servers reject or a schema that does not describe an object.
 * @example
 * const weather = tool({
 *   name: 'get_weather',
 *   description: 'Current weather for a city',
 *   input: z.object({ city: z.string() }),
 *   execute: async ({ city }, { signal }) => (await fetch(`/weather?q=${city}`, { signal })).json(),
 * });
 */
export function tool<Schema extends ObjectSchema>(config: ZodToolConfig<Schema>): Tool;
export function tool(config: JsonSchemaToolConfig): Tool;
export function tool(config: ZodToolConfig<ObjectSchema> | JsonSchemaToolConfig): Tool {
  if (!TOOL_NAME.test(config.name)) {
    throw new TypeError(
      `Invalid tool name "${config.name}": use 1-64 letters, digits, "_" or "-" (servers reject others)`,
    );
  }
  const { input } = config;
  const schema = input instanceof z.ZodType ? input : jsonSchemaToZod(config.name, input);
  const parameters = input instanceof z.ZodType ? toParameters(input) : input;
  if (parameters.type !== 'object') {
    throw new TypeError(
      `Tool "${config.name}" input must describe an object (got type ${String(parameters.type)})`,
    );
  }
  return {
    name: config.name,
    description: config.description,
    parameters,
    validate: (input) => validateInput(config.name, schema, input),
    // The loop only ever passes execute/needsApproval the value `validate` produced.
    ...(config.execute ? { execute: config.execute } : {}),
    ...(config.needsApproval === undefined ? {} : { needsApproval: config.needsApproval }),
    ...(config.timeoutMs === undefined ? {} : { timeoutMs: config.timeoutMs }),
  };
}

function toParameters(input: z.ZodType): JsonSchema {
  // `io: 'input'`: fields with defaults are optional for the model. `$schema` is dropped:
  // llama.cpp's grammar converter and some templates choke on unknown top-level keys.
  const { $schema: _ignored, ...schema } = z.toJSONSchema(input, { io: 'input' });
  return schema;
}

function jsonSchemaToZod(name: string, input: JsonSchema): z.ZodType {
  try {
    return z.fromJSONSchema(input);
  } catch (error) {
    throw new TypeError(`Tool "${name}" has a JSON Schema zod cannot read`, { cause: error });
  }
}

/** The wire definition of a tool, for the request's `tools` array. */
export function toToolDefinition(tool: Tool): ToolDefinition {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}
