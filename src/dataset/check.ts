import path from "node:path";
import { hasBadSegment } from "../domain/policy-id.js";
import type { DatasetInput } from "./schema.js";

export interface DatasetProblem {
  path: string;
  message: string;
}

/** `policies[3].codes[0].code_system` from a zod-style path. */
export function jsonPath(path: ReadonlyArray<PropertyKey>): string {
  return path
    .map((p, i) => (typeof p === "number" ? `[${p}]` : `${i === 0 ? "" : "."}${String(p)}`))
    .join("");
}

/** A stored file's path: relative, not empty, and never leading out of the dataset's folder. */
export function isInsideFolder(file: string): boolean {
  const slashed = file.replaceAll("\\", "/");
  if (slashed === "" || slashed.startsWith("/") || /^[A-Za-z]:/.test(slashed)) return false;
  // Without a segment that starts with a dot, nothing can climb out: most paths skip the
  // normalising, which was most of the checks' time on a dataset's load.
  if (!slashed.startsWith(".") && !slashed.includes("/.")) return true;
  const normal = path.posix.normalize(slashed);
  return normal !== "." && normal !== ".." && !normal.startsWith("../");
}

/** The cross-reference rules of `dataset-format.md` that a schema cannot state. */
export function checkDatasetReferences(dataset: DatasetInput, max = 10): DatasetProblem[] {
  const problems: DatasetProblem[] = [];
  const add = (path: PropertyKey[], message: string) => {
    if (problems.length < max) problems.push({ path: jsonPath(path), message });
  };
  const payers = new Set<string>();
  dataset.payers.forEach((p, i) => {
    if (payers.has(p.payer_id))
      add(["payers", i, "payer_id"], `duplicate payer_id '${p.payer_id}'`);
    payers.add(p.payer_id);
  });
  const lobs = new Set<string>();
  dataset.lobs.forEach((l, i) => {
    if (lobs.has(l.lob_id)) add(["lobs", i, "lob_id"], `duplicate lob_id '${l.lob_id}'`);
    lobs.add(l.lob_id);
    if (!payers.has(l.payer_id)) add(["lobs", i, "payer_id"], `unknown payer '${l.payer_id}'`);
  });
  const ids = new Set<string>();
  dataset.policies.forEach((p, i) => {
    if (ids.has(p.policy_id))
      add(["policies", i, "policy_id"], `duplicate policy_id '${p.policy_id}'`);
    ids.add(p.policy_id);
    checkPolicyFields(p, i, add);
    p.applicability.forEach((a, j) => {
      if (!lobs.has(a.lob_id))
        add(["policies", i, "applicability", j, "lob_id"], `unknown LOB '${a.lob_id}'`);
    });
  });
  return problems;
}

type Policy = DatasetInput["policies"][number];

/** The rules of one version that need no other record: id shape, stored files, periods. */
export function checkPolicyFields(
  p: Policy,
  i: number,
  add: (path: PropertyKey[], message: string) => void,
): void {
  const segments = p.policy_id.split("/");
  if (segments.length < 3 || hasBadSegment(p.policy_id))
    add(
      ["policies", i, "policy_id"],
      "must be <source>/<policy_key>/<effective_from_date>: three or more segments, none empty, '.' or '..'",
    );
  else if (segments.at(-1) !== p.effective_from_date)
    add(
      ["policies", i, "policy_id"],
      `must end with '/${p.effective_from_date}' (its effective_from_date)`,
    );
  for (const variant of ["display", "text"] as const) {
    const file = p.files?.[variant];
    if (file !== undefined && !isInsideFolder(file))
      add(
        ["policies", i, "files", variant],
        "must be a path relative to the dataset's folder, inside it (no absolute path, no '..' out of it)",
      );
  }
  // Equal dates are an empty period: a retirement notice, in effect on no day (mcd-import.md).
  if (p.effective_to_date !== null && p.effective_to_date < p.effective_from_date)
    add(
      ["policies", i, "effective_to_date"],
      "must not be before effective_from_date (it is exclusive; equal means in effect on no day)",
    );
  p.applicability.forEach((a, j) => {
    if (a.to !== null && a.to < a.from)
      add(
        ["policies", i, "applicability", j, "to"],
        "must not be before 'from' (it is exclusive; equal means in effect on no day)",
      );
  });
}
