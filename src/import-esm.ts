import { enableCompileCache } from "./compile-cache.js";

/** The ES-module-only packages the CLI loads on demand, by the name they are imported by. */
export interface EsmPackages {
  chalk: typeof import("chalk");
  conf: typeof import("conf");
  "env-paths": typeof import("env-paths");
  marked: typeof import("marked");
  "marked-terminal": typeof import("marked-terminal");
  ora: typeof import("ora");
}

// Set only inside the built CLI: dist/bundle.cjs runs as a code-cached vm.Script (see
// src/cli/load-bundle.ts), where Node 20 refuses import() without an experimental flag, so
// the loader, an ordinary module, lends its own import() as this parameter of the script.
declare const __importEsm: ((specifier: string) => Promise<unknown>) | undefined;

/** Imports an ES-module-only package, through the loader's import() in the built CLI. */
export function importEsm<Name extends keyof EsmPackages>(name: Name): Promise<EsmPackages[Name]> {
  enableCompileCache();
  const load = typeof __importEsm === "function" ? __importEsm : (s: string) => import(s);
  return load(name) as Promise<EsmPackages[Name]>;
}
