import { mkdirSync } from "node:fs";
import path from "node:path";
import { bundledDatasetPath } from "../../dataset/load.js";
import { isSnapshotName, snapshotPath } from "../../dataset/data-dir.js";

/** `--into`: a bare name (no separator, no extension) is the snapshot of that name in the data folder. */
export async function resolveRuleTarget(value: string, env: NodeJS.ProcessEnv): Promise<string> {
  if (!isSnapshotName(value)) return value;
  const file = await snapshotPath(value, env);
  mkdirSync(path.dirname(file), { recursive: true });
  return file;
}

/** The prior-authorization lists shipped with coverage (docs/data.md says how it was made). */
export function shippedPriorAuthList(): string {
  return path.join(
    path.dirname(path.dirname(bundledDatasetPath())),
    "data",
    "prior-authorization.csv",
  );
}
