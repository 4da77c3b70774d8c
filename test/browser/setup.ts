// Keep Lit's dev mode in tests (it catches class-field shadowing) but silence its banner.
(globalThis as { litIssuedWarnings?: Set<string> }).litIssuedWarnings ??= new Set(['dev-mode']);
