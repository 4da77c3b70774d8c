import * as v from 'valibot';
import type { ContextSummary } from './context-summary.js';
import type { Checked } from './schema-check.js';
import type {
  AssistantMessage,
  AssistantToolCall,
  ContentPart,
  Message,
  ToolMessage,
} from './message.js';
import { valibotCheck } from './valibot-check.js';

const toolCallSchema = v.looseObject({
  id: v.string(),
  type: v.literal('function'),
  function: v.looseObject({ name: v.string(), arguments: v.string() }),
});

const contentPartSchema = v.variant('type', [
  v.looseObject({ type: v.literal('text'), text: v.string() }),
  v.looseObject({ type: v.literal('image_url'), image_url: v.looseObject({ url: v.string() }) }),
]);

/** A {@link Message} read back from storage or an imported file: one shape per `role`. */
export const messageSchema = v.variant('role', [
  v.looseObject({ role: v.literal('system'), content: v.string() }),
  v.looseObject({
    role: v.literal('user'),
    content: v.union([v.string(), v.array(contentPartSchema)]),
  }),
  v.looseObject({
    role: v.literal('assistant'),
    content: v.nullable(v.string()),
    tool_calls: v.optional(v.array(toolCallSchema)),
    reasoning: v.optional(v.string()),
    stopped: v.optional(v.literal(true)),
    contextUse: v.optional(
      v.object({
        promptTokens: v.pipe(v.number(), v.minValue(0)),
        contextWindow: v.pipe(v.number(), v.minValue(1)),
      }),
    ),
  }),
  v.looseObject({
    role: v.literal('tool'),
    tool_call_id: v.string(),
    name: v.optional(v.string()),
    content: v.union([v.string(), v.array(contentPartSchema)]),
    durationMs: v.optional(v.number()),
  }),
]);

const checkList = valibotCheck<Message[]>(v.array(messageSchema));

/**
 * Messages read back from storage or an imported file, checked and copied. Unknown fields are
 * left out, and so are optional fields holding `undefined` (IndexedDB's structured clone keeps
 * them; our `Message` type, under `exactOptionalPropertyTypes`, does not allow them).
 */
export function checkMessages(value: unknown): Checked<Message[]> {
  const checked = checkList(value);
  return checked.success ? { success: true, data: checked.data.map(copyMessage) } : checked;
}

function copyMessage(message: Message): Message {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      return {
        role: 'user',
        content:
          typeof message.content === 'string' ? message.content : message.content.map(copyPart),
      };
    case 'assistant': {
      const copy: AssistantMessage = { role: 'assistant', content: message.content };
      if (message.tool_calls) copy.tool_calls = message.tool_calls.map(copyCall);
      if (message.reasoning !== undefined) copy.reasoning = message.reasoning;
      if (message.stopped === true) copy.stopped = true;
      // A copy already: valibot's `object` output holds only the keys it declares.
      if (message.contextUse) copy.contextUse = message.contextUse;
      return copy;
    }
    case 'tool': {
      const copy: ToolMessage = {
        role: 'tool',
        tool_call_id: message.tool_call_id,
        content:
          typeof message.content === 'string' ? message.content : message.content.map(copyPart),
      };
      if (message.name !== undefined) copy.name = message.name;
      if (message.durationMs !== undefined) copy.durationMs = message.durationMs;
      return copy;
    }
  }
}

function copyPart(part: ContentPart): ContentPart {
  return part.type === 'text'
    ? { type: 'text', text: part.text }
    : { type: 'image_url', image_url: { url: part.image_url.url } };
}

function copyCall(call: AssistantToolCall): AssistantToolCall {
  return {
    id: call.id,
    type: 'function',
    function: { name: call.function.name, arguments: call.function.arguments },
  };
}

/**
 * Checks a {@link ContextSummary} read back (a snapshot, storage, an imported file). Beside the
 * message schema so that the lazy code using it reaches valibot the way the first load does (one
 * shared chunk, see test/size/first-load-files.test.ts).
 */
export const contextSummarySchema: v.GenericSchema<unknown, ContextSummary> = v.pipe(
  v.object({
    text: v.string(),
    covers: v.pipe(v.number(), v.integer(), v.minValue(1)),
    fingerprint: v.string(),
    createdAt: v.number(),
    model: v.optional(v.string()),
  }),
  v.transform((summary): ContextSummary => {
    const { model, ...rest } = summary;
    return model === undefined ? rest : { ...rest, model };
  }),
);
