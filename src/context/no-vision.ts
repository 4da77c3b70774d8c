import { AgentError } from '../errors/agent-error.js';
import type { Message } from '../types/message.js';
import type { ContextServer } from './probe-context-window.js';

/**
 * The messages to send a model that takes no images: an image in the newest user message is
 * refused ({@link noVision}); images of earlier ones are left out of what is sent (the stored
 * history keeps them), so a conversation goes on in text after a switch to a text-only model.
 */
export function withoutImages(messages: readonly Message[], refuse: () => AgentError): Message[] {
  let last = messages.length - 1;
  while (last >= 0 && messages[last]?.role !== 'user') last -= 1;
  return messages.map((message, index) => {
    if (message.role !== 'user' || typeof message.content === 'string') return message;
    const text = message.content.filter((part) => part.type === 'text');
    if (text.length === message.content.length) return message;
    if (index === last) throw refuse();
    return { ...message, content: text };
  });
}

/**
 * The model takes no images, as its server said up front (see `probeContextWindow`): thrown
 * before any request is made, with the fix for that server.
 */
export function noVision(model: string, server: ContextServer | undefined): AgentError {
  const [said, fix] =
    server === 'llama.cpp'
      ? [
          'llama-server reports no vision modality',
          'llama.cpp: start llama-server with the model’s projector (--mmproj <file>, or -hf <repo>, which fetches it), or send text only.',
        ]
      : server === 'lmstudio'
        ? [
            'LM Studio lists it as a text model (type "llm", not "vlm")',
            'LM Studio: load a vision model (its type is "vlm": gemma-3, qwen2.5-vl, llava…), or send text only.',
          ]
        : [
            'Ollama lists no "vision" capability for it',
            'Ollama: pick a model with the vision capability (gemma3, qwen2.5vl, llava, llama3.2-vision…), or send text only.',
          ];
  return new AgentError(
    'VALIDATION_FAILED',
    `The model "${model}" cannot take images: ${said}.\n${fix}`,
    { context: { model, fix } },
  );
}
