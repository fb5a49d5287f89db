import path from "node:path";

/** Folder of the config file: COVERAGE_CONFIG_DIR, else $XDG_CONFIG_HOME/coverage, else ~/.config/coverage. */
export function resolveConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.COVERAGE_CONFIG_DIR) return path.resolve(env.COVERAGE_CONFIG_DIR);
  // node:os only when asked: loading it was ~0.3 ms of every start.
  const os = process.getBuiltinModule("node:os") as typeof import("node:os");
  const base = env.XDG_CONFIG_HOME || path.join(os.homedir(), ".config");
  return path.join(base, "coverage");
}

/** The config file (`conf` writes `config.json` in the folder). */
export function resolveConfigFile(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(resolveConfigDir(env), "config.json");
}
