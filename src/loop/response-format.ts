import type { JsonSchema, StandardSchemaV1 } from '../types/schema-check.js';

/**
 * The format of the final answer: JSON matching `schema`. Sent to the server as its
 * grammar-constrained decoding (`response_format` json_schema; Ollama's native `format`;
 * WebLLM's `json_object` with a schema), then parsed and validated: the `done` event carries
 * the value as `output`. A zod schema (classic ≥ 4.2, or any Standard Schema that renders its
 * JSON Schema) or a plain JSON Schema object.
 */
export interface ResponseFormat {
  /** A zod (Standard) schema, validated by its own library, or a JSON Schema object. */
  schema: StandardSchemaV1 | JsonSchema;
  /** The schema's name, as `json_schema.name` (letters, digits, `_`, `-`). Default `response`. */
  name?: string;
}
