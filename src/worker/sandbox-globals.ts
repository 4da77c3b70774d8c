import { SANDBOX_GLOBALS, type SandboxGlobal } from '../tools/javascript-sandbox-protocol.js';

interface Hidden {
  target: object;
  descriptor: PropertyDescriptor;
}

/** Where each blockable global was defined, captured before any model code runs. */
const originals = new Map<SandboxGlobal, Hidden[]>();
for (const name of SANDBOX_GLOBALS) originals.set(name, definitions(name));

/**
 * Removes every {@link SANDBOX_GLOBALS} entry not in `allow` from the global scope and
 * restores the allowed ones. Removal walks the prototype chain: `fetch`, `indexedDB` and
 * `importScripts` live on `WorkerGlobalScope.prototype`, not on the global object itself
 * (Chromium 156), so deleting `self.fetch` alone would leave `fetch` reachable.
 *
 * A fence against accidental network and storage use, not a security boundary: code in
 * the same realm can still reach the network through dynamic `import()`.
 */
export function restrictGlobals(allow: readonly SandboxGlobal[]): void {
  for (const [name, hidden] of originals) {
    if (allow.includes(name)) {
      for (const { target, descriptor } of hidden) Object.defineProperty(target, name, descriptor);
    } else {
      for (const target of holders(name)) Reflect.deleteProperty(target, name);
    }
  }
}

function definitions(name: string): Hidden[] {
  const found: Hidden[] = [];
  for (const target of holders(name)) {
    const descriptor = Object.getOwnPropertyDescriptor(target, name);
    if (descriptor) found.push({ target, descriptor });
  }
  return found;
}

/** The objects on the global scope's prototype chain that define `name` themselves. */
function holders(name: string): object[] {
  const found: object[] = [];
  for (
    let target: object | null = globalThis;
    target !== null;
    target = Object.getPrototypeOf(target) as object | null
  ) {
    if (Object.hasOwn(target, name)) found.push(target);
  }
  return found;
}
