import * as z from 'zod/mini';
import type { ToolDefinition } from '../types/chat-request.js';
import { jsonSchemaInput } from './json-schema-input.js';
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

/**
 * A zod v4 schema of an object, from `zod` (classic) or `zod/mini`: both build on zod's core
 * `$ZodType`, which is all that validation and `z.toJSONSchema` need.
 */
export type ObjectSchema = z.core.$ZodType<Record<string, unknown>>;

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
 * Defines a tool. `input` is a zod object schema, classic or `zod/mini` (its JSON Schema comes
 * from `z.toJSONSchema`), or a plain JSON Schema object (validated with `z.fromJSONSchema`).
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
  if (isZodSchema(config.input)) return zodTool({ ...config, input: config.input });
  checkName(config.name);
  return createTool(config, jsonSchemaInput(config.name, config.input), config.input);
}

/**
 * {@link tool} for a zod schema only. Our own tools (the sandbox, `submit`, output tools) use
 * it, so that they do not bring `z.fromJSONSchema` (and with it zod classic) into a bundle.
 *
 * @throws TypeError for a name servers reject or a schema that does not describe an object.
 */
export function zodTool<Schema extends ObjectSchema>(config: ZodToolConfig<Schema>): Tool {
  checkName(config.name);
  return createTool(config, config.input, toParameters(config.input));
}

/** Whether `input` is a zod v4 schema (classic or mini) rather than a plain JSON Schema. */
export function isZodSchema(input: ObjectSchema | JsonSchema): input is ObjectSchema {
  // `$ZodType`'s `instanceof` checks the schema's traits, not its prototype: true for classic
  // and mini schemas alike, even from another copy of zod.
  return input instanceof z.core.$ZodType;
}

function checkName(name: string): void {
  if (!TOOL_NAME.test(name)) {
    throw new TypeError(
      `Invalid tool name "${name}": use 1-64 letters, digits, "_" or "-" (servers reject others)`,
    );
  }
}

function createTool(
  config: ZodToolConfig<ObjectSchema> | JsonSchemaToolConfig,
  schema: z.core.$ZodType,
  parameters: JsonSchema,
): Tool {
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

function toParameters(input: z.core.$ZodType): JsonSchema {
  // `io: 'input'`: fields with defaults are optional for the model. `$schema` is dropped:
  // llama.cpp's grammar converter and some templates choke on unknown top-level keys.
  const { $schema: _ignored, ...schema } = z.toJSONSchema(input, { io: 'input' });
  return schema;
}

/** The wire definition of a tool, for the request's `tools` array. */
export function toToolDefinition(tool: Tool): ToolDefinition {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.parameters },
  };
}
