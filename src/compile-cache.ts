let enabled = false;

/**
 * Turns on Node's cache of compiled code (Node 22.1+; a no-op on Node 20) for the files loaded
 * from here on: dist/undici.cjs and the ES-module-only packages (chalk, conf, ora, marked).
 * Asked just before one of those first loads, not at every start: the bundle has its own code
 * cache (src/cli/load-bundle.ts), and loading node:module for this cost a local search ~0.5 ms.
 */
export function enableCompileCache(): void {
  if (enabled) return;
  enabled = true;
  const { enableCompileCache: enable } = process.getBuiltinModule("node:module") as {
    enableCompileCache?: () => unknown;
  };
  enable?.();
}
