import { isRecord } from '../types/is-record.js';

/**
 * The human-readable message in an error body, whatever its dialect:
 * - OpenAI, LM Studio, llama.cpp: `{"error": {"message": "…"}}`
 * - Ollama: `{"error": "…"}`
 * - vLLM (older), FastChat: `{"object": "error", "message": "…"}`
 * - FastAPI-based servers (TGI, text-generation-webui): `{"detail": "…"}` or `{"detail": [{"msg": "…"}]}`
 * - a plain string
 *
 * Returns undefined when `value` carries none of these.
 */
export function serverErrorMessage(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>; // fields narrowed one by one below
  const { error, message, detail } = record;
  if (typeof error === 'string' && error.trim()) return error.trim();
  if (typeof error === 'object' && error !== null) {
    const nested = serverErrorMessage(error);
    if (nested) return nested;
  }
  if (typeof message === 'string' && message.trim()) return message.trim();
  if (typeof detail === 'string' && detail.trim()) return detail.trim();
  if (Array.isArray(detail)) {
    const messages = detail
      .map(
        (item: unknown) =>
          serverErrorMessage(item) ??
          (isRecord(item) && typeof item.msg === 'string' ? item.msg : undefined),
      )
      .filter((item): item is string => item !== undefined);
    if (messages.length > 0) return messages.join('; ');
  }
  return undefined;
}

/** True when `value` looks like an error report rather than a chunk: `error` set, or `object: "error"`. */
export function isErrorPayload(value: unknown): boolean {
  if (!isRecord(value)) return false;
  return (value.error !== undefined && value.error !== null) || value.object === 'error';
}

/** Parses `text` as JSON, or returns undefined. */
export function tryParseJSON(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/** `text` cut to `max` characters, with an ellipsis when cut; whitespace runs collapsed. */
export function truncate(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
