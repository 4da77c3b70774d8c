import type {
  QuickJSContext,
  QuickJSHandle,
  VmFunctionImplementation,
} from 'quickjs-emscripten-core';
import { sandboxJsonSafe } from './sandbox-json-safe.js';
import { sandboxPrelude, type PreludeExports, type PreludeHost } from './sandbox-prelude.js';

/** Evaluated in every run's fresh context; see sandbox-prelude.ts for why it is source text. */
const PRELUDE_SOURCE = `((host) => (${sandboxPrelude.toString()})(host, (${sandboxJsonSafe.toString()})()))`;

/** The prelude's exports in the engine: its functions as handles, `headerLines` read out. */
export type PreludeHandles = {
  [Name in Exclude<keyof PreludeExports, 'headerLines'>]: QuickJSHandle;
} & {
  headerLines: number;
};

/** The worker's side of {@link PreludeHost}: each host function, on engine handles. */
export type HostFunctions = {
  [Name in keyof PreludeHost]: VmFunctionImplementation<QuickJSHandle>;
};

/**
 * Evaluates the prelude in `context` and calls it with `functions` as its host; `own` keeps
 * each handle to dispose with the run. Returns the prelude's exports.
 */
export function installPrelude(
  context: QuickJSContext,
  functions: HostFunctions,
  own: <T extends QuickJSHandle>(handle: T) => T,
): PreludeHandles {
  const host = own(context.newObject());
  for (const [name, implementation] of Object.entries(functions)) {
    if (!implementation) continue;
    const fn = context.newFunction(name, implementation);
    context.setProp(host, name, fn);
    fn.dispose();
  }
  const prelude = own(context.unwrapResult(context.evalCode(PRELUDE_SOURCE, 'sandbox-runtime.js')));
  const made = own(context.unwrapResult(context.callFunction(prelude, context.undefined, host)));
  const member = (name: keyof PreludeExports) => own(context.getProp(made, name));
  return {
    headerLines: context.getNumber(member('headerLines')),
    compile: member('compile'),
    fire: member('fire'),
    serialize: member('serialize'),
    take: member('take'),
    describe: member('describe'),
  };
}
