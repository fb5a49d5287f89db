/**
 * A schema built on first use: building every schema of the contract was ~6 ms of each start
 * (the module runs when the CLI registers its commands), most of it for schemas that command
 * never uses (`--help` uses none). The stand-in forwards everything to the schema once built,
 * so callers and composed schemas see no difference.
 */
export function lazySchema<T extends object>(build: () => T): T {
  let real: T | undefined;
  const get = () => (real ??= build());
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
