import { flatJsonSchemaCheck } from '../types/flat-json-schema-check.js';
import type * as JsonSchemaValidator from '../types/json-schema-validator.js';
import {
  isStandardSchema,
  standardValidate,
  type Check,
  type Checked,
  type InferOutput,
  type JsonSchema,
  type StandardSchemaV1,
} from '../types/schema-check.js';
import { inputValidator, type InputValidator } from './validate-input.js';

export type { JsonSchema };

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
  /**
   * Checks raw model arguments against the schema, synchronously. A tool whose input is a plain
   * JSON Schema beyond the flat kind (nesting, arrays, formats, bounds…) checks with a validator
   * loaded on demand: it has a {@link Tool.prepare}; await it once before calling this directly
   * (the loop does, before each model call); until then it throws.
   */
  readonly validate: InputValidator;
  /**
   * Resolves once {@link Tool.validate} can run: loads what the check needs (for a plain JSON
   * Schema beyond the flat kind, the JSON Schema validator: a chunk of its own, so a page that
   * never checks such a schema never ships it) and reads the schema. Absent: `validate` is always
   * ready — as for a flat JSON Schema: an object whose properties each have a simple `type`
   * and/or an `enum` of plain values, with `required` and a boolean `additionalProperties`.
   *
   * Rejects with a `TypeError` naming the tool when its JSON Schema cannot be read.
   */
  readonly prepare?: () => Promise<void>;
}

/**
 * A schema of an object that validates itself: any Standard Schema (standardschema.dev) — a zod
 * v4 schema (classic or `zod/mini`), Valibot, ArkType… The runtime bundles none of them: it calls
 * the schema's own `~standard.validate`.
 */
export type ObjectSchema = StandardSchemaV1<unknown, Record<string, unknown>>;

/** The definition of a tool whose input is a schema object (zod…): `execute` gets the parsed type. */
export interface SchemaToolConfig<Schema extends ObjectSchema> {
  name: string;
  description: string;
  input: Schema;
  /**
   * The JSON Schema sent to the model. Default: the schema's own (Standard JSON Schema: zod
   * classic ≥ 4.2 has it). Required for schemas that cannot render one, such as `zod/mini`:
   * `parameters: z.toJSONSchema(schema, { io: 'input' })`.
   */
  parameters?: JsonSchema;
  execute?: (input: InferOutput<Schema>, context: ToolContext) => unknown;
  needsApproval?: NeedsApproval<InferOutput<Schema>>;
  timeoutMs?: number;
}

/** @deprecated Renamed {@link SchemaToolConfig}: any Standard Schema works, not only zod. */
export type ZodToolConfig<Schema extends ObjectSchema> = SchemaToolConfig<Schema>;

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
 * Defines a tool. `input` is a schema object that validates itself (zod classic, or any Standard
 * Schema that renders its JSON Schema; `zod/mini` with `parameters` beside it), or a plain JSON
 * Schema object: a flat one (properties of simple types or enums) is checked at once; any other
 * by a small JSON Schema validator, loaded by {@link Tool.prepare} (the loop awaits it before
 * each model call).
 *
 * @throws TypeError for a name servers reject, a schema that does not describe an object, or a
 *   schema with no JSON Schema for the model. A JSON Schema the validator cannot read (two
 *   subschemas with the same `$id`) is reported when the validator loads: `prepare()` rejects
 *   with a `TypeError` naming the tool, so the first model call throws it, before any request.
 * @example
 * const weather = tool({
 *   name: 'get_weather',
 *   description: 'Current weather for a city',
 *   input: z.object({ city: z.string() }),
 *   execute: async ({ city }, { signal }) => (await fetch(`/weather?q=${city}`, { signal })).json(),
 * });
 */
export function tool<Schema extends ObjectSchema>(config: SchemaToolConfig<Schema>): Tool;
export function tool(config: JsonSchemaToolConfig): Tool;
export function tool(config: SchemaToolConfig<ObjectSchema> | JsonSchemaToolConfig): Tool {
  checkName(config.name);
  const { input } = config;
  if (isSchemaInput(input)) {
    const given = 'parameters' in config ? config.parameters : undefined;
    const { $schema: _ignored, ...parameters } = given ?? ownJsonSchema(config.name, input);
    return createTool(config, parameters, (value) => standardValidate(input, value));
  }
  // The schema most tools have (an object of simple-typed properties) is checked without the
  // validator: such a tool has nothing to prepare.
  const flat = flatJsonSchemaCheck<Record<string, unknown>>(input);
  return flat ? createTool(config, input, flat) : createJsonSchemaTool(config, input);
}

/** Whether `input` is a schema object (zod, Valibot…) rather than a plain JSON Schema. */
export function isSchemaInput(input: ObjectSchema | JsonSchema): input is ObjectSchema {
  return isStandardSchema(input);
}

function checkName(name: string): void {
  if (!TOOL_NAME.test(name)) {
    throw new TypeError(
      `Invalid tool name "${name}": use 1-64 letters, digits, "_" or "-" (servers reject others)`,
    );
  }
}

let validator: typeof JsonSchemaValidator | undefined;

/** The JSON Schema validator, loaded once for every tool (and kept: later calls await nothing). */
async function loadValidator(): Promise<typeof JsonSchemaValidator> {
  validator ??= await import('../types/json-schema-validator.js');
  return validator;
}

/**
 * A tool whose input is a plain JSON Schema. Its check compiles once the validator is loaded:
 * by `prepare()`, or by `validate` itself when another tool's `prepare()` loaded it already —
 * once per schema text for the page (`sharedJsonSchemaCheck`), however many tools and Clients.
 */
function createJsonSchemaTool(
  config: SchemaToolConfig<ObjectSchema> | JsonSchemaToolConfig,
  input: JsonSchema,
): Tool {
  let check: Check<Record<string, unknown>> | undefined;
  const compile = (loaded: typeof JsonSchemaValidator): Check<Record<string, unknown>> => {
    try {
      check ??= loaded.sharedJsonSchemaCheck<Record<string, unknown>>(input);
    } catch (error) {
      throw new TypeError(`Tool "${config.name}" has a JSON Schema that cannot be read`, {
        cause: error,
      });
    }
    return check;
  };
  const definition = createTool(config, input, (value) => {
    if (check) return check(value);
    if (!validator) {
      throw new Error(
        `Tool "${config.name}": await tool.prepare() before tool.validate(): its JSON Schema validator loads on demand`,
      );
    }
    return compile(validator)(value);
  });
  return {
    ...definition,
    prepare: async () => {
      compile(await loadValidator());
    },
  };
}

function createTool(
  config: SchemaToolConfig<ObjectSchema> | JsonSchemaToolConfig,
  parameters: JsonSchema,
  check: (value: unknown) => Checked<Record<string, unknown>>,
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
    validate: inputValidator(config.name, check),
    // The loop only ever passes execute/needsApproval the value `validate` produced.
    ...(config.execute ? { execute: config.execute } : {}),
    ...(config.needsApproval === undefined ? {} : { needsApproval: config.needsApproval }),
    ...(config.timeoutMs === undefined ? {} : { timeoutMs: config.timeoutMs }),
  };
}

/**
 * The schema's own JSON Schema for its input (fields with defaults are optional for the model).
 * The caller drops `$schema`: llama.cpp's grammar converter and some templates choke on unknown
 * top-level keys.
 */
function ownJsonSchema(toolName: string, input: ObjectSchema): JsonSchema {
  const converter = input['~standard'].jsonSchema;
  if (!converter) {
    throw new TypeError(
      `Tool "${toolName}": its ${input['~standard'].vendor} schema cannot render JSON Schema for the model ` +
        "(zod/mini cannot): pass `parameters: z.toJSONSchema(schema, { io: 'input' })` beside it",
    );
  }
  return converter.input({ target: 'draft-2020-12' });
}
