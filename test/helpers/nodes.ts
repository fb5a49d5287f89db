import { execFileSync } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * A `node` binary of each major found here, by major: this process's own, COVERAGE_TEST_NODES
 * (binaries, comma-separated), every `node` on PATH, and the ones .ci/run keeps in
 * CI_NODE_CACHE (default ~/.cache/coverage-ci). A major not found is absent.
 */
export function findNodes(): Map<number, string> {
  const cache =
    process.env.CI_NODE_CACHE ??
    path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), ".cache"), "coverage-ci");
  const candidates = [
    process.execPath,
    ...(process.env.COVERAGE_TEST_NODES ?? "").split(",").filter(Boolean),
    ...(process.env.PATH ?? "").split(path.delimiter).map((dir) => path.join(dir, "node")),
    ...[20, 22, 24].map((major) =>
      path.join(cache, `node-${major}`, "node_modules", ".bin", "node"),
    ),
  ];
  const found = new Map<number, string>();
  const seen = new Set<string>();
  for (const file of candidates) {
    if (!existsSync(file) || seen.has(realpathSync(file))) continue;
    seen.add(realpathSync(file));
    try {
      const version = execFileSync(file, ["-p", "process.versions.node"], { encoding: "utf8" });
      const major = Number(version.split(".")[0]);
      if (!found.has(major)) found.set(major, file);
    } catch {
      // Not a working node: ignore it.
    }
  }
  return found;
}
