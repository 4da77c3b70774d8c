import { AgentError } from '../errors/agent-error.js';
import { serverErrorMessage, truncate, tryParseJSON } from './server-error-message.js';
import { setupFix } from '../errors/server-setup-hint.js';

/**
 * The `HTTP_ERROR` for a response with status ≥ 400, with the server's own message:
 * `HTTP 404 from http://localhost:11434/v1/chat/completions: model "x" not found`.
 * `bodyText` is the (possibly partial) body; HTML error pages (nginx, a dev server)
 * contribute their `<title>` only. A known server setting behind the error (llama.cpp
 * without `--jinja`, an Ollama model without tools…) adds a line saying what to change,
 * also kept as `context.fix`.
 */
export function httpError(
  response: Response,
  url: string,
  bodyText: string | undefined,
  attempts: number,
): AgentError {
  const detail = describeErrorBody(bodyText) ?? response.statusText;
  const fix = setupFix(detail);
  const message = `HTTP ${response.status} from ${url}${detail ? `: ${detail}` : ''}${fix.line}`;
  return new AgentError('HTTP_ERROR', message, {
    status: response.status,
    context: {
      url,
      attempts,
      ...(bodyText ? { body: truncate(bodyText, 1_000) } : {}),
      ...fix.context,
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
