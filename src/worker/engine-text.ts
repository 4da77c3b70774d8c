import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten-core';

/** The `length` of a string in the engine, read without copying the string out. */
export function engineStringLength(context: QuickJSContext, handle: QuickJSHandle): number {
  const length = context.getProp(handle, 'length');
  const value = context.getNumber(length);
  length.dispose();
  return value;
}

/**
 * Calls `fn` in the engine and reads its result out as text: `undefined` when it threw, or
 * returned anything but a string of at most `maxLength` characters (the model's code may have
 * replaced what the prelude relies on). The result's handle is disposed.
 */
export function engineText(
  context: QuickJSContext,
  call: { fn: QuickJSHandle; args: QuickJSHandle[]; maxLength: number },
): string | undefined {
  const result = context.callFunction(call.fn, context.undefined, ...call.args);
  const handle = result.error ?? result.value;
  const text =
    !result.error &&
    context.typeof(handle) === 'string' &&
    engineStringLength(context, handle) <= call.maxLength
      ? context.getString(handle)
      : undefined;
  handle.dispose();
  return text;
}
