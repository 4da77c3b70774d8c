// The one import of zod classic in src/: `z.fromJSONSchema` exists only there (zod/mini has no
// counterpart in 4.6), and the schemas it builds are classic ones. Everything else uses zod/mini,
// which tree-shakes; classic attaches every method to every schema and does not, so a page pays
// its ~28 KB (min+gzip) only when it builds a tool from a plain JSON Schema — `tool()` and
// `workerTool()` reach this module, the runtime (`query`, `Client`, history) does not.
import { z } from 'zod';
import type { JsonSchema } from './tool.js';

/**
 * A zod schema validating what the JSON Schema `input` describes.
 *
 * @throws TypeError naming the tool when zod cannot read the JSON Schema.
 */
export function jsonSchemaInput(toolName: string, input: JsonSchema): z.core.$ZodType {
  try {
    return z.fromJSONSchema(input);
  } catch (error) {
    throw new TypeError(`Tool "${toolName}" has a JSON Schema zod cannot read`, { cause: error });
  }
}
