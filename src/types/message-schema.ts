import * as z from 'zod/mini';
import type { Message } from './message.js';

// zod/mini, not classic: classic attaches every method to every schema, so none of it
// tree-shakes, and this schema ships with every page that stores or restores a conversation.

const toolCallSchema = z.object({
  id: z.string(),
  type: z.literal('function'),
  function: z.object({ name: z.string(), arguments: z.string() }),
});

/**
 * A {@link Message} read back from storage or an imported file. Unknown fields are stripped, and
 * so are optional fields holding `undefined` (IndexedDB's structured clone keeps them; our
 * `Message` type, under `exactOptionalPropertyTypes`, does not allow them).
 */
export const messageSchema: z.ZodMiniType<Message> = z.pipe(
  z.discriminatedUnion('role', [
    z.object({ role: z.literal('system'), content: z.string() }),
    z.object({ role: z.literal('user'), content: z.string() }),
    z.object({
      role: z.literal('assistant'),
      content: z.nullable(z.string()),
      tool_calls: z.optional(z.array(toolCallSchema)),
    }),
    z.object({
      role: z.literal('tool'),
      tool_call_id: z.string(),
      name: z.optional(z.string()),
      content: z.string(),
    }),
  ]),
  z.transform((message): Message => {
    if (message.role === 'assistant' && message.tool_calls === undefined) {
      return { role: 'assistant', content: message.content };
    }
    if (message.role === 'tool' && message.name === undefined) {
      return { role: 'tool', tool_call_id: message.tool_call_id, content: message.content };
    }
    // Validated above; the only `undefined` optionals were handled, so the shapes match.
    return message as Message;
  }),
);
