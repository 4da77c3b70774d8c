/** The message of anything thrown (an `Error`'s message, else its string form). */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Anything thrown, as an `Error`. */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
