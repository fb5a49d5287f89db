import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isWellFormedDataset } from "../../../src/dataset/fast-check.js";
import { bundledDatasetPath, parseDataset } from "../../../src/dataset/load.js";
import { Dataset } from "../../../src/dataset/schema.js";
import { CliError } from "../../../src/errors.js";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const readJson = (file: string): unknown => JSON.parse(readFileSync(file, "utf8"));

// Every dataset file in the tree that is JSON at all: valid and deliberately broken ones.
const jsonFiles = [
  bundledDatasetPath(),
  path.join(ROOT, "test/fixtures/rules/dataset.json"),
  ...readdirSync(path.join(ROOT, "test/fixtures/engine-rules"))
    .filter((f) => f.endsWith(".json") && f !== "not-json.json")
    .map((f) => path.join(ROOT, "test/fixtures/engine-rules", f)),
];

const valid = {
  format: "coverage-dataset",
  version: 1,
  as_of: "2026-06-01",
  payers: [{ payer_id: "P1", display_name: "Alpha" }],
  lobs: [
    { lob_id: "P1_commercial_US", payer_id: "P1", lob: "commercial", state: null },
    { lob_id: "P1_medicaid_CA", payer_id: "P1", lob: "medicaid", state: "CA" },
  ],
  codes: [{ code_system: "ICD10CM", code: "E11.9", description: "Type 2 diabetes" }],
  policies: [
    {
      policy_id: "src/K1/2024-01-01",
      policy_number: "K1",
      title: "Title",
      effective_from_date: "2024-01-01",
      effective_to_date: null,
      file_url: "https://example.org/k1",
      file_type: "pdf",
      listing_url: "https://example.org/",
      summary: "Summary",
      criteria_text: null,
      files: { display: "files/k1.pdf", text: "files/k1.md" },
      applicability: [{ lob_id: "P1_medicaid_CA", from: "2024-01-01", to: "2025-01-01" }],
      codes: [
        { code_system: "ICD10CM", code: "E11.9", relationship: "COVERS", category: "Group 1" },
        { code_system: "CPT", code: "97110", relationship: "REFERENCES", category: null },
      ],
    },
  ],
};

// Values that are right for some field and wrong for most others.
const REPLACEMENTS: unknown[] = [
  undefined,
  null,
  "",
  "x",
  0,
  1,
  true,
  [],
  {},
  "2024-02-30",
  "2024-1-01",
  "2024-03-01",
  "CA",
  "cA",
  "ICD10CM",
  "ICD10PCS",
  "COVERS",
  "covers",
  "commercial",
  "pdf",
  "coverage-dataset",
];

/** Every path to a value inside `value` (objects' keys and arrays' indexes). */
function pathsOf(
  value: unknown,
  prefix: Array<string | number> = [],
): Array<Array<string | number>> {
  if (typeof value !== "object" || value === null) return [prefix];
  const entries = Array.isArray(value)
    ? value.map((v, i) => [i, v] as const)
    : Object.entries(value);
  return [prefix, ...entries.flatMap(([k, v]) => pathsOf(v, [...prefix, k]))];
}

/** A deep copy of `root` with the value at `at` replaced (or the key deleted for undefined). */
function mutate(root: unknown, at: Array<string | number>, value: unknown): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  if (at.length === 0) return value;
  let node = copy;
  for (const key of at.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = at[at.length - 1] as string | number;
  if (value === undefined && !Array.isArray(node)) delete node[last];
  else node[last] = value;
  return copy;
}

const ALL_PATHS = pathsOf(valid);

describe("isWellFormedDataset: the fast check agrees with the zod schema", () => {
  it.each(jsonFiles.map((f) => [path.relative(ROOT, f), f]))("%s", (_name, file) => {
    const raw = readJson(file);
    expect(isWellFormedDataset(raw)).toBe(Dataset.safeParse(raw).success);
  });

  it("accepts the valid example, and the example without its optional fields", () => {
    expect(isWellFormedDataset(valid)).toBe(true);
    let bare = mutate(valid, ["codes"], undefined);
    bare = mutate(bare, ["as_of"], undefined);
    bare = mutate(bare, ["policies", 0, "files"], undefined);
    bare = mutate(bare, ["policies", 0, "criteria_text"], undefined);
    bare = mutate(bare, ["policies", 0, "codes", 0, "category"], undefined);
    expect(Dataset.safeParse(bare).success).toBe(true);
    expect(isWellFormedDataset(bare)).toBe(true);
  });

  it("gives zod's answer whatever one field is replaced with", () => {
    let checked = 0;
    for (const at of ALL_PATHS) {
      for (const value of REPLACEMENTS) {
        const raw = mutate(valid, at, value);
        expect([at, value, isWellFormedDataset(raw)]).toEqual([
          at,
          value,
          Dataset.safeParse(raw).success,
        ]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it("never accepts what zod rejects, with several fields replaced at once", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...ALL_PATHS), fc.constantFrom(...REPLACEMENTS)), {
          minLength: 1,
          maxLength: 4,
        }),
        (changes) => {
          let raw: unknown = valid;
          for (const [at, value] of changes) {
            try {
              raw = mutate(raw, at, value);
            } catch {
              // An earlier change removed the parent of this path.
            }
          }
          expect(isWellFormedDataset(raw)).toBe(Dataset.safeParse(raw).success);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("parseDataset", () => {
  it("returns the dataset as written when it is well formed (no copy)", () => {
    const raw = structuredClone(valid);
    expect(parseDataset(raw, "inline")).toBe(raw);
  });

  it.each<[unknown, string]>([
    [
      mutate(valid, ["policies", 0, "codes", 1, "code_system"], "ICD10PCS"),
      "policies[0].codes[1].code_system: ",
    ],
    [
      mutate(valid, ["policies", 0, "effective_from_date"], "2024-02-30"),
      "policies[0].effective_from_date: Input should be a valid date in the format YYYY-MM-DD",
    ],
    [mutate(valid, ["lobs", 1, "state"], undefined), "lobs[1].state: "],
    [mutate(valid, ["format"], "other"), "format: "],
    [[], "(root): "],
    [
      mutate(valid, ["policies", 0, "applicability", 0, "lob_id"], "NOPE"),
      "policies[0].applicability[0].lob_id: unknown LOB 'NOPE'",
    ],
  ])("names the first bad path: %#", (raw, line) => {
    let error: unknown;
    try {
      parseDataset(raw, "data.json");
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(CliError);
    const cli = error as CliError;
    expect(cli.exitCode).toBe(2);
    expect(cli.message).toBe("bad dataset data.json");
    expect(cli.details.some((d) => d.startsWith(line))).toBe(true);
  });
});
