import { jsonSchemaCheck, type Checked, type JsonSchema } from './json-schema-check.js';
import type { AssistantToolCall, ContentPart, Message } from './message.js';

const string = { type: 'string' } as const;

const toolCallSchema = {
  type: 'object',
  properties: {
    id: string,
    type: { const: 'function' },
    function: {
      type: 'object',
      properties: { name: string, arguments: string },
      required: ['name', 'arguments'],
    },
  },
  required: ['id', 'type', 'function'],
};

const contentPartSchema = {
  type: 'object',
  anyOf: [
    { properties: { type: { const: 'text' }, text: string }, required: ['type', 'text'] },
    {
      properties: {
        type: { const: 'image_url' },
        image_url: { properties: { url: string }, required: ['url'] },
      },
      required: ['type', 'image_url'],
    },
  ],
};

/** The fields of each role beyond `role`: what {@link Message} declares, as JSON Schema. */
function role(name: Message['role'], properties: JsonSchema, required: string[]): JsonSchema {
  return {
    if: { properties: { role: { const: name } } },
    then: { properties, required },
  };
}

/** A {@link Message} read back from storage or an imported file, as JSON Schema. */
export const messageSchema: JsonSchema = {
  type: 'object',
  properties: { role: { enum: ['system', 'user', 'assistant', 'tool'] } },
  required: ['role'],
  allOf: [
    role('system', { content: string }, ['content']),
    role('user', { content: { anyOf: [string, { type: 'array', items: contentPartSchema }] } }, [
      'content',
    ]),
    role(
      'assistant',
      {
        content: { type: ['string', 'null'] },
        tool_calls: { type: 'array', items: toolCallSchema },
      },
      ['content'],
    ),
    role(
      'tool',
      {
        tool_call_id: string,
        name: string,
        content: { anyOf: [string, { type: 'array', items: contentPartSchema }] },
      },
      [
        'tool_call_id',
        'content',
      ],
    ),
  ],
};

const checkList = jsonSchemaCheck<Message[]>({ type: 'array', items: messageSchema });

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
    case 'assistant':
      return message.tool_calls === undefined
        ? { role: 'assistant', content: message.content }
        : {
            role: 'assistant',
            content: message.content,
            tool_calls: message.tool_calls.map(copyCall),
          };
    case 'tool': {
      const content =
        typeof message.content === 'string' ? message.content : message.content.map(copyPart);
      return message.name === undefined
        ? { role: 'tool', tool_call_id: message.tool_call_id, content }
        : { role: 'tool', tool_call_id: message.tool_call_id, name: message.name, content };
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
