import { AgentError } from '../errors/agent-error.js';
import { serverErrorMessage, truncate, tryParseJSON } from './server-error-message.js';

/**
 * The `HTTP_ERROR` for a response with status ≥ 400, with the server's own message:
 * `HTTP 404 from http://localhost:11434/v1/chat/completions: model "x" not found`.
 * `bodyText` is the (possibly partial) body; HTML error pages (nginx, a dev server)
 * contribute their `<title>` only. (`withSetupFix` then adds what to change when a known
 * server setting is behind it.)
 */
export function httpError(
  response: Response,
  url: string,
  bodyText: string | undefined,
  attempts: number,
): AgentError {
  const detail = describeErrorBody(bodyText) ?? response.statusText;
  const message = `HTTP ${response.status} from ${url}${detail ? `: ${detail}` : ''}`;
  return new AgentError('HTTP_ERROR', message, {
    status: response.status,
    context: {
      url,
      attempts,
      ...(bodyText ? { body: truncate(bodyText, 1_000) } : {}),
    },
  });
}

function describeErrorBody(bodyText: string | undefined): string | undefined {
  const text = bodyText?.trim();
  if (!text) return undefined;
  const parsed = tryParseJSON(text);
  if (parsed) return serverErrorMessage(parsed.value) ?? truncate(text);
  if (text.startsWith('<')) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.trim();
    return title ? truncate(title) : undefined;
  }
  return truncate(text);
}
