/** A compiled body of the model's code: `console` is its one parameter. */
export type CodeFunction = (console: unknown) => Promise<unknown>;

/**
 * The `AsyncFunction` constructor, which is not a global: `new AsyncFunction('console', body)`
 * compiles `body` as `async function anonymous(console) { body }`, so top-level `await` and
 * `return` work. Throws a SyntaxError (without a position) for invalid code.
 */
export const AsyncFunction = (Object.getPrototypeOf(async () => {}) as { constructor: unknown })
  .constructor as new (parameter: string, body: string) => CodeFunction;
