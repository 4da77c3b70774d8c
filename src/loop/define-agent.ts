import { tool, type JsonSchema, type Tool } from '../tools/tool.js';
import type { StandardSchemaV1 } from '../types/schema-check.js';
import type { AgentOptions } from './agent-options.js';

type MaybePromise<T> = T | Promise<T>;

/** An output is an object: it arrives as a tool call's arguments, always a JSON object. */
export type OutputObject = Record<string, unknown>;

/**
 * A custom check of an output that already matches the schema. Return a message to reject
 * it (the model reads the message and tries again), `undefined` to accept it. A validator
 * that throws rejects the output with the error's message.
 */
export type Validator<Output> = (output: Output) => MaybePromise<string | undefined>;

/** The name of the tool injected beside an output tool with a `reflectionHandler`. */
export const SUBMIT_TOOL_NAME = 'submit';

/** The default description of the injected `submit` tool. */
export const SUBMIT_TOOL_DESCRIPTION =
  'Submit your final output for validation. Call this when you are satisfied with your output.';

interface OutputToolBase<Output extends OutputObject> {
  /** The tool the model calls with its output as arguments, e.g. `save_contact`. */
  name: string;
  description: string;
  /**
   * A zod schema (or any Standard Schema). Sent to the model as the tool's JSON Schema; checked
   * again when the attempt ends.
   */
  schema: StandardSchemaV1<unknown, Output>;
  /** The JSON Schema sent to the model, for schemas that cannot render one (`zod/mini`). */
  parameters?: JsonSchema;
}

/** An output tool without reflection: its first call ends the attempt. */
export interface DirectOutputTool<Output extends OutputObject> extends OutputToolBase<Output> {
  reflectionHandler?: never;
  /** There is no `submit` tool without a `reflectionHandler`. */
  submit?: never;
}

/**
 * An output tool with reflection: each call runs `reflectionHandler` and returns its text
 * to the model, which may refine its output; the injected `submit` tool ends the attempt.
 */
export interface ReflectiveOutputTool<Output extends OutputObject> extends OutputToolBase<Output> {
  /** Feedback on a schema-valid output, e.g. "phone is missing; look it up or submit". */
  reflectionHandler: (output: Output) => MaybePromise<string>;
  /** Overrides the injected `submit` tool's description (its name is always `submit`). */
  submit?: { description?: string };
}

/** The output tool: with a `reflectionHandler` (and a `submit` tool) or without. */
export type OutputToolConfig<Output extends OutputObject> =
  DirectOutputTool<Output> | ReflectiveOutputTool<Output>;

/**
 * The output as the model's final answer, JSON constrained by the server to the schema
 * (`responseFormat`), instead of an output tool: for small local models that follow a grammar
 * better than tool-calling instructions. Checked by the same schema and validators, with the
 * same attempts; helpers may run first (one round per attempt: the answering call offers no
 * tools).
 */
export interface JsonOutput<Output extends OutputObject> {
  mode: 'json';
  /** A zod schema (or any Standard Schema) of an object. */
  schema: StandardSchemaV1<unknown, Output>;
  /** The JSON Schema sent to the server, for schemas that cannot render one (`zod/mini`). */
  parameters?: JsonSchema;
  /** The schema's name as sent (`json_schema.name`). Default `response`. */
  name?: string;
}

/**
 * The {@link AgentOptions} an agent passes on to its `Client`. The tools, the loop
 * strategy and the hooks belong to `executeAgent`; history is not persisted.
 */
export type AgentModelOptions = Omit<
  AgentOptions,
  | 'systemPrompt'
  | 'tools'
  | 'autoExecuteTools'
  | 'maxToolIterations'
  | 'loopStrategy'
  | 'hooks'
  | 'history'
  | 'conversationId'
>;

/** What {@link defineAgent} takes. */
export interface AgentConfig<Input, Output extends OutputObject> extends AgentModelOptions {
  /** Names the agent in error messages. */
  name?: string;
  systemPrompt: string;
  /** The first user message of the conversation, built from the input. */
  buildPrompt: (input: Input) => MaybePromise<string>;
  tools: {
    /** Tools the model may call before producing its output. Each needs `execute` and no approval. */
    helpers?: readonly Tool[];
    /** The output tool, or `{ mode: 'json', schema }` for the answer itself as JSON. */
    output: OutputToolConfig<Output> | JsonOutput<Output>;
  };
  validation?: {
    /** Run in order after the schema check; the first message rejects the output. */
    validators?: readonly Validator<Output>[];
    /** Attempts before `VALIDATION_FAILED`. Default 3. */
    maxAttempts?: number;
    /** Model calls per attempt before `MAX_ITERATIONS`. Default 15. */
    maxIterationsPerAttempt?: number;
  };
}

/** The reflection part of an {@link AgentOutput}. */
export interface AgentReflection<Output> {
  handler: (output: Output) => MaybePromise<string>;
  submitDescription: string;
}

/** The output tool of a defined agent, resolved. */
export interface AgentOutput<Output> {
  /** `tool`: an output tool carries the output; `json`: the final answer, in `responseFormat`. */
  mode: 'tool' | 'json';
  /** The output tool's name; in json mode, the schema's name. */
  name: string;
  description: string;
  /** The JSON Schema sent to the model. */
  parameters: JsonSchema;
  schema: StandardSchemaV1<unknown, Output>;
  /** Present exactly when the agent has a `submit` tool. */
  reflection: AgentReflection<Output> | undefined;
}

/** A defined agent: pass it to `executeAgent`. Immutable; one agent serves many executions. */
export interface Agent<Input, Output> {
  readonly name: string | undefined;
  readonly systemPrompt: string;
  readonly buildPrompt: (input: Input) => MaybePromise<string>;
  readonly helpers: readonly Tool[];
  readonly output: AgentOutput<Output>;
  readonly validators: readonly Validator<Output>[];
  readonly maxAttempts: number;
  readonly maxIterationsPerAttempt: number;
  readonly modelOptions: AgentModelOptions;
}

/** Defaults of {@link AgentConfig} `validation`. */
export const AGENT_DEFAULTS = { maxAttempts: 3, maxIterationsPerAttempt: 15 } as const;

/**
 * Defines an agent that turns an input into a validated, typed output: the model may call
 * helper tools, then calls the output tool with its answer; the answer is checked against
 * the schema and the validators, and the model retries with the error in view.
 *
 * @throws TypeError for a configuration `executeAgent` could not run: a helper without
 * `execute` or needing approval (nothing could answer the pause), duplicate tool names
 * (including `submit` beside a reflective output tool), an output schema that is not an
 * object, limits that are not positive integers.
 * @example
 * const extractContact = defineAgent({
 *   model: 'qwen3:8b',
 *   baseURL: 'http://localhost:11434/v1',
 *   systemPrompt: 'You extract contact details. Call save_contact with what you found.',
 *   buildPrompt: (text: string) => `Extract the contact from:\n${text}`,
 *   tools: {
 *     output: {
 *       name: 'save_contact',
 *       description: 'Saves the extracted contact',
 *       schema: z.object({ name: z.string(), email: z.email() }),
 *     },
 *   },
 *   validation: { validators: [({ email }) => (email.endsWith('.invalid') ? 'email domain is not real' : undefined)] },
 * });
 * const result = await executeAgent(extractContact, 'Write to Ada at ada@example.org');
 * if (result.ok) console.log(result.output.email);
 */
export function defineAgent<Input, Output extends OutputObject>(
  config: AgentConfig<Input, Output>,
): Agent<Input, Output> {
  const { name, systemPrompt, buildPrompt, tools, validation = {}, ...modelOptions } = config;
  const output = tools.output;
  const helpers = [...(tools.helpers ?? [])];
  const label = name === undefined ? 'Agent' : `Agent "${name}"`;
  const maxAttempts = positiveInteger(
    label,
    'maxAttempts',
    validation.maxAttempts ?? AGENT_DEFAULTS.maxAttempts,
  );
  const maxIterationsPerAttempt = positiveInteger(
    label,
    'maxIterationsPerAttempt',
    validation.maxIterationsPerAttempt ?? AGENT_DEFAULTS.maxIterationsPerAttempt,
  );
  for (const helper of helpers) {
    if (!helper.execute) {
      throw new TypeError(
        `${label}: helper tool "${helper.name}" has no execute function (external tools would pause the run)`,
      );
    }
    if (helper.needsApproval !== undefined && helper.needsApproval !== false) {
      throw new TypeError(
        `${label}: helper tool "${helper.name}" needs approval, which executeAgent cannot give`,
      );
    }
  }
  const json = 'mode' in output;
  const outputName = json ? (output.name ?? 'response') : output.name;
  const description = json ? '' : output.description;
  // tool() checks the name and that the schema describes an object, and renders its JSON Schema.
  const { parameters } = tool({
    name: outputName,
    description,
    input: output.schema,
    ...(output.parameters ? { parameters: output.parameters } : {}),
  });
  const reflection =
    !json && output.reflectionHandler
      ? {
          handler: output.reflectionHandler,
          submitDescription: output.submit?.description ?? SUBMIT_TOOL_DESCRIPTION,
        }
      : undefined;
  const names = [
    ...helpers.map((helper) => helper.name),
    ...(json ? [] : [output.name]),
    ...(reflection ? [SUBMIT_TOOL_NAME] : []),
  ];
  const duplicate = names.find((toolName, index) => names.indexOf(toolName) !== index);
  if (duplicate !== undefined) throw new TypeError(`${label}: two tools are named "${duplicate}"`);
  return Object.freeze({
    name,
    systemPrompt,
    buildPrompt,
    helpers,
    output: {
      mode: json ? ('json' as const) : ('tool' as const),
      name: outputName,
      description,
      parameters,
      schema: output.schema,
      reflection,
    },
    validators: [...(validation.validators ?? [])],
    maxAttempts,
    maxIterationsPerAttempt,
    modelOptions,
  });
}

function positiveInteger(label: string, option: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new TypeError(`${label}: ${option} must be a positive integer (got ${value})`);
  }
  return value;
}
