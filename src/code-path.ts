// A run's code path, for the loader's code cache (src/cli/load-bundle.ts): a cache keeps the
// code of the kinds of run that made it, and the subcommand alone does not tell a search over a
// snapshot (node:sqlite, the store, its reads) from one over JSON. Shared through a registered
// symbol, as dist/cli.cjs and dist/bundle.cjs each have their own copy of this module.
const KEY = Symbol.for("coverage.code-path");

/** Notes that this run took a code path of its own (`snapshot`), for the code cache. */
export function noteCodePath(name: string): void {
  (globalThis as Record<symbol, unknown>)[KEY] = name;
}

/** The code path this run noted, if any. */
export function readCodePath(): string | undefined {
  const name = (globalThis as Record<symbol, unknown>)[KEY];
  return typeof name === "string" ? name : undefined;
}
