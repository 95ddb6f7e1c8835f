// First module of the Luxon bundle: restore the built-ins the core's traps replaced, before the polyfills run.
globalThis.__weft.removeTraps();
