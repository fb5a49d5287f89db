import * as z from "zod";

// zod's setting, once a command has said (undefined: zod's own default), and whether zod has
// been used yet: the built CLI loads zod only then (build/plugins.ts, lazyZod), so the setting
// waits for that instead of loading it.
let jitless: boolean | undefined;
let zodInUse = false;

/**
 * Whether zod compiles an object schema into a function on its first parse. A one-shot command
 * parses each schema about once, and compiling (`new Function`, which no code cache keeps) cost
 * more than it saved: ~3 ms of a local search. A server parses the same schemas on every
 * request. Schemas built before a change keep the setting they were built with; it applies
 * from the next schema built (every schema of the CLI is built through `lazySchema`).
 */
export function compileSchemas(enabled: boolean): void {
  jitless = !enabled;
  if (zodInUse) z.config({ jitless });
}

function useZod(): void {
  if (zodInUse) return;
  zodInUse = true;
  if (jitless !== undefined) z.config({ jitless });
}

/**
 * A schema built on first use: building every schema of the contract was ~6 ms of each start
 * (the module runs when the CLI registers its commands), most of it for schemas that command
 * never uses (`--help` uses none). The stand-in forwards everything to the schema once built,
 * so callers and composed schemas see no difference.
 */
export function lazySchema<T extends object>(build: () => T): T {
  let real: T | undefined;
  const get = () => {
    if (real === undefined) {
      useZod();
      real = build();
    }
    return real;
  };
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(get(), key),
    set: (_, key, value) => Reflect.set(get(), key, value),
    has: (_, key) => Reflect.has(get(), key),
    ownKeys: () => Reflect.ownKeys(get()),
    getPrototypeOf: () => Reflect.getPrototypeOf(get()),
    defineProperty: (_, key, desc) => Reflect.defineProperty(get(), key, desc),
    deleteProperty: (_, key) => Reflect.deleteProperty(get(), key),
    // The stand-in's own target stays empty: a property the schema cannot reconfigure must
    // still read as configurable here, or the Proxy's invariants would throw.
    getOwnPropertyDescriptor: (_, key) => {
      const desc = Reflect.getOwnPropertyDescriptor(get(), key);
      return desc && { ...desc, configurable: true };
    },
  });
}
