import type { ServerCheck } from './check-server.js';
import { firstLine } from './first-line.js';
import { chunkFacts } from './chunk-facts.js';
import { streamChunks, type ProbeContext } from './generation-probe.js';

/** One short answer (at most 64 tokens): where reasoning comes, and whether usage is reported. */
export async function checkPlainAnswer(context: ProbeContext): Promise<ServerCheck[]> {
  let chunks: unknown[];
  try {
    chunks = await streamChunks(context, {
      messages: [{ role: 'user', content: 'Reply with the single word OK.' }],
      max_tokens: 64,
      stream_options: { include_usage: true },
    });
  } catch (error) {
    return [
      {
        id: 'reasoning',
        status: 'fail',
        detail: `A plain request failed: ${firstLine(error)}`,
        fix: 'Check the server log for this request.',
      },
    ];
  }
  const facts = chunkFacts(chunks);
  const reasoning: ServerCheck =
    facts.reasoning === undefined
      ? {
          id: 'reasoning',
          status: 'pass',
          detail:
            context.capabilities.thinking === true
              ? 'No reasoning in this answer (thinking may be off for this request).'
              : 'No reasoning: the model answers directly.',
        }
      : facts.reasoning === 'think tags'
        ? {
            id: 'reasoning',
            status: 'pass',
            detail: 'Reasoning comes as <think> tags in the text; open-agent splits it out.',
          }
        : {
            id: 'reasoning',
            status: 'pass',
            detail: `Reasoning comes in the \`${facts.reasoning}\` field.`,
          };
  const usage: ServerCheck = facts.usage
    ? {
        id: 'usage',
        status: 'pass',
        detail: `Usage reported (${facts.usage.promptTokens} prompt + ${facts.usage.completionTokens} completion tokens).`,
      }
    : {
        id: 'usage',
        status: 'warn',
        detail: 'No usage in the stream: open-agent estimates token counts (marked estimated).',
        fix: 'Update the server: current Ollama, LM Studio, llama.cpp and vLLM send usage when asked with `stream_options.include_usage`.',
      };
  return [reasoning, usage];
}

/** A 1×1 red PNG: the smallest image every vision encoder takes. */
const RED_PIXEL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** Whether the model takes an image (one request, at most 16 tokens), unless the server already said it does not. */
export async function checkImages(context: ProbeContext): Promise<ServerCheck> {
  const fix =
    context.kind === 'llama.cpp'
      ? 'Use a vision model and start llama-server with its `--mmproj` file (or `-hf` a repo that has one).'
      : 'Use a vision model (Gemma 3, Qwen2.5-VL, Llama 3.2 Vision) to send images.';
  if (context.capabilities.vision === false) {
    return {
      id: 'images',
      status: 'warn',
      detail: 'The server says this model takes no images: open-agent refuses to send them to it.',
      fix,
    };
  }
  try {
    await streamChunks(context, {
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What colour is this image? One word.' },
            { type: 'image_url', image_url: { url: RED_PIXEL } },
          ],
        },
      ],
      max_tokens: 16,
    });
  } catch (error) {
    return context.capabilities.vision === true
      ? {
          id: 'images',
          status: 'fail',
          detail: `The server lists vision for this model, but refused an image: ${firstLine(error)}`,
          fix,
        }
      : { id: 'images', status: 'warn', detail: `Images are refused: ${firstLine(error)}`, fix };
  }
  return { id: 'images', status: 'pass', detail: 'Images are accepted.' };
}

/** Whether `response_format` (a JSON schema) shapes the answer: one request, at most 64 tokens. */
export async function checkResponseFormat(context: ProbeContext): Promise<ServerCheck> {
  const fix =
    'Update the server (Ollama 0.5+, LM Studio 0.3.5+, llama.cpp and vLLM honour `json_schema`); until then open-agent validates the answer and asks again.';
  let content: string;
  try {
    const chunks = await streamChunks(context, {
      messages: [{ role: 'user', content: 'What is 2 + 2? Answer as JSON.' }],
      max_tokens: 64,
      response_format: {
        type: 'json_schema',
        json_schema: {
          name: 'answer',
          strict: true,
          schema: {
            type: 'object',
            properties: { answer: { type: 'string' } },
            required: ['answer'],
            additionalProperties: false,
          },
        },
      },
    });
    content = chunkFacts(chunks)
      .content.replace(/<think>[\s\S]*?<\/think>/g, '')
      .trim();
  } catch (error) {
    return {
      id: 'response-format',
      status: 'warn',
      detail: `A request with response_format was refused: ${firstLine(error)}`,
      fix,
    };
  }
  try {
    const value: unknown = JSON.parse(content);
    if (
      typeof value === 'object' &&
      value !== null &&
      typeof (value as { answer?: unknown }).answer === 'string'
    ) {
      return {
        id: 'response-format',
        status: 'pass',
        detail: 'response_format (JSON schema) is honoured.',
      };
    }
  } catch {
    // Not JSON: reported below.
  }
  return {
    id: 'response-format',
    status: 'warn',
    detail: `response_format was ignored: the answer was not JSON of the schema ("${content.slice(0, 60)}").`,
    fix,
  };
}
