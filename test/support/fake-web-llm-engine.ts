/**
 * A WebLLM `MLCEngine` without a GPU: requests go through WebLLM's own checks
 * (`postInitAndCheckFieldsChatCompletion` from the installed `@mlc-ai/web-llm`, which also
 * injects its Hermes tool prompt), and the stream has the shapes of its `MLCEngine`
 * (0.2.86, `makeStreamDeltaChunk` / `makeStreamFinalChunk` / `makeStreamUsageChunk`):
 * content deltas carrying `role` each time, then a final chunk that — for a tools request
 * finishing with `stop` — parses the output as a JSON array of calls (no ids) and reports
 * `tool_calls`, then a usage chunk with `choices: []`.
 */
import { ModelType, postInitAndCheckFieldsChatCompletion } from '@mlc-ai/web-llm';
import type { ChatCompletionRequestStreaming } from '@mlc-ai/web-llm';
import type { WebLLMEngine } from '../../src/backend/engines/web-llm-backend.js';
import type { ChatRequest } from '../../src/types/chat-request.js';

/** A scripted model output: the raw text the model generates, in pieces. */
export type WebLLMOutput = readonly string[];

export interface FakeWebLLMEngine extends WebLLMEngine {
  /** Each request as WebLLM saw it after its own checks (its Hermes system prompt included). */
  readonly requests: ChatRequest[];
  interrupted: number;
}

export function fakeWebLLMEngine(
  modelId: string,
  outputs: readonly WebLLMOutput[],
  { contextWindowSize }: { contextWindowSize?: number } = {},
): FakeWebLLMEngine {
  const queue = [...outputs];
  let interrupt = false;
  const engine: FakeWebLLMEngine & { loadedModelIdToChatConfig?: Map<string, unknown> } = {
    // MLCEngine 0.2.86 keeps each loaded model's mlc-chat-config.json here (private in its types).
    ...(contextWindowSize === undefined
      ? {}
      : {
          loadedModelIdToChatConfig: new Map([
            [modelId, { context_window_size: contextWindowSize, sliding_window_size: -1 }],
          ]),
        }),
    requests: [],
    interrupted: 0,
    interruptGenerate() {
      interrupt = true;
      engine.interrupted += 1;
    },
    chat: {
      completions: {
        create(request: ChatRequest) {
          // Throws (and rewrites the request) exactly as WebLLM does; our request type is
          // structurally the OpenAI one WebLLM copied, but for its index signature.
          postInitAndCheckFieldsChatCompletion(
            request as unknown as ChatCompletionRequestStreaming,
            modelId,
            ModelType.LLM,
          );
          // getModelIdToUse: a named model must be the loaded one.
          if (request.model && request.model !== modelId) {
            throw named(
              'SpecifiedModelNotFoundError',
              `Specified model ${request.model} for chatCompletion is not found in loaded models.`,
            );
          }
          // getConversationFromChatCompletionRequest: assistant content must be a string.
          for (const message of request.messages) {
            if (message.role === 'assistant' && typeof message.content !== 'string') {
              throw Object.assign(new Error("assistant's message should have string content."), {
                name: 'ContentTypeError',
              });
            }
          }
          engine.requests.push(structuredClone(request));
          const output = queue.shift();
          if (output === undefined) throw new Error('fakeWebLLMEngine: no scripted output left');
          interrupt = false;
          return Promise.resolve(
            stream(request, modelId, output, () => interrupt, contextWindowSize !== undefined),
          );
        },
      },
    },
  };
  return engine;
}

async function* stream(
  request: ChatRequest,
  model: string,
  output: WebLLMOutput,
  interrupted: () => boolean,
  counts: boolean,
): AsyncGenerator<unknown> {
  const base = { id: 'webllm-1', model, object: 'chat.completion.chunk', created: 1750000000 };
  let finishReason = 'stop';
  let message = '';
  for (const piece of output) {
    await Promise.resolve();
    if (interrupted()) {
      finishReason = 'abort';
      break;
    }
    message += piece;
    yield {
      ...base,
      choices: [
        {
          delta: { content: piece, role: 'assistant' },
          finish_reason: null,
          index: 0,
          logprobs: null,
        },
      ],
    };
  }
  const functionCalling = request.tools !== undefined;
  let toolCalls: unknown[] | undefined;
  if (finishReason === 'stop' && functionCalling) {
    finishReason = 'tool_calls';
    toolCalls = toolCallsFrom(message);
  }
  yield {
    ...base,
    choices: [
      {
        delta: functionCalling ? { role: 'assistant', tool_calls: toolCalls } : {},
        finish_reason: finishReason,
        index: 0,
      },
    ],
  };
  if (request.stream_options?.include_usage === true) {
    // With a known window, about what a tokenizer counts (4 characters a token), so the
    // client's calibration holds; else the fixed figure the usage tests expect.
    const promptTokens = counts ? Math.ceil(JSON.stringify(request.messages).length / 4) : 50;
    yield {
      ...base,
      choices: [],
      usage: {
        completion_tokens: 7,
        prompt_tokens: promptTokens,
        total_tokens: promptTokens + 7,
        extra: {},
      },
    };
  }
}

/** WebLLM's getToolCallFromOutputMessage(message, isStreaming = true). */
function toolCallsFrom(message: string): unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch (error) {
    throw named(
      'ToolCallOutputParseError',
      `Internal error: error encountered when parsing outputMessage for function calling. Got outputMessage: ${message}\nGot error: ${String(error)}`,
    );
  }
  if (!Array.isArray(parsed))
    throw named(
      'ToolCallOutputInvalidTypeError',
      'Internal error: expect output of function calling to be an array',
    );
  return parsed.map((call: { name?: unknown; arguments?: unknown }, index) => {
    if (call.name === undefined || call.arguments === undefined)
      throw named(
        'ToolCallOutputMissingFieldsError',
        'Expect generated tool call to have fields name, arguments',
      );
    return {
      index,
      function: { name: call.name, arguments: JSON.stringify(call.arguments) },
      type: 'function',
    };
  });
}

function named(name: string, message: string): Error {
  return Object.assign(new Error(message), { name });
}
