import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { execa, type Options } from "execa";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const BIN = path.join(ROOT, "bin", "coverage.js");
export const RULES_DATA = path.join(ROOT, "test", "fixtures", "rules", "dataset.json");

/** An environment with none of the user's COVERAGE_* settings and a private config folder. */
export function cleanEnv(
  extra: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (
      !k.startsWith("COVERAGE_") &&
      ![
        "NO_COLOR",
        "FORCE_COLOR",
        "HTTP_PROXY",
        "HTTPS_PROXY",
        "http_proxy",
        "https_proxy",
        // ora animates nothing when CI is set (is-interactive), whatever the terminal: the CLI
        // runs as a user's would, and CI's own runs (CI=true) test the same terminal output.
        "CI",
      ].includes(k)
    )
      env[k] = v;
  }
  env.COVERAGE_CONFIG_DIR = mkdtempSync(path.join(os.tmpdir(), "coverage-config-"));
  return { ...env, ...extra };
}

/** Runs the built CLI as a process; never rejects on a non-zero exit. */
export function runCoverage(
  args: string[],
  options: Options & { env?: Record<string, string | undefined> } = {},
) {
  return execa("node", [BIN, ...args], {
    reject: false,
    extendEnv: false,
    env: cleanEnv(options.env),
    cwd: options.cwd ?? ROOT,
    timeout: 60_000,
    ...(options.input !== undefined ? { input: options.input } : { stdin: "ignore" }),
  });
}
