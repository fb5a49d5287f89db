// Validates the bundled dataset (the loader's full checks, plus every file it names) and prints its counts.
import { statSync } from "node:fs";
import path from "node:path";
import { bundledDatasetPath, loadDataset } from "../src/dataset/load.js";
import { summarizeDataset } from "../src/dataset/summary.js";

const loaded = await loadDataset(bundledDatasetPath());
const missing = loaded.db.policies.flatMap((v) =>
  [v.files.display, v.files.text]
    .filter((f): f is string => Boolean(f))
    .flatMap((f) => {
      try {
        statSync(path.resolve(loaded.dir, f));
        return [];
      } catch {
        return [`${v.policy_id}: ${f}`];
      }
    }),
);
const summary = summarizeDataset(
  loaded.db,
  loaded.db.asOf ?? new Date().toISOString().slice(0, 10),
);
console.log(
  JSON.stringify(
    { file: path.relative(process.cwd(), loaded.file), as_of: loaded.db.asOf, ...summary },
    null,
    2,
  ),
);
if (missing.length) {
  console.error(`missing files:\n  ${missing.join("\n  ")}`);
  process.exitCode = 1;
}
