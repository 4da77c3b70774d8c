import type { AssistantTurn } from '../stream/aggregate-stream.js';
import type { ChatRequest } from '../types/chat-request.js';
import type { Usage } from '../types/usage.js';

const toolsLength = new WeakMap<object, number>();

/**
 * Counts ~4 characters a token, plus a few tokens of framing per message. Cheap on purpose:
 * it runs on every call to a server that reports no usage, over a growing conversation.
 */
export function estimateUsage(
  request: ChatRequest,
  turn: Pick<AssistantTurn, 'text' | 'reasoning' | 'toolCalls'>,
): Usage {
  let promptChars = 0;
  for (const message of request.messages) {
    const content = message.content;
    if (typeof content === 'string') promptChars += 16 + content.length;
    else {
      promptChars += 16;
      // Text parts as text; an image as ~768 tokens (a vision encoder's grid), not its base64.
      for (const part of content ?? [])
        promptChars += part.type === 'text' ? part.text.length : 3072;
    }
    if (message.role === 'assistant') {
      for (const call of message.tool_calls ?? [])
        promptChars += call.function.name.length + call.function.arguments.length;
    }
  }
  const { tools } = request;
  if (tools) {
    let length = toolsLength.get(tools);
    if (length === undefined) toolsLength.set(tools, (length = JSON.stringify(tools).length));
    promptChars += length;
  }
  const promptTokens = Math.ceil(promptChars / 4);
  let completionChars = turn.text.length + turn.reasoning.length;
  for (const call of turn.toolCalls)
    completionChars += call.name.length + JSON.stringify(call.input).length;
  // Counted here like the prompt, not with estimateTokens: importing types/usage.ts from this
  // lazy module would give it a chunk of its own beside the entry (esbuild).
  const completionTokens = Math.ceil(completionChars / 4);
  return {
    promptTokens,
    completionTokens,
    totalTokens: promptTokens + completionTokens,
    estimated: true,
  };
}
