import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { JsonDatasetSink } from "../../../src/dataset/json-sink.js";
import { loadDataset } from "../../../src/dataset/load.js";
import type { DatasetPolicy } from "../../../src/dataset/schema.js";

const policy = (id: string, lob = "X_commercial_US"): DatasetPolicy => ({
  policy_id: `x/${id}/2024-01-01`,
  policy_number: id,
  title: `Policy ${id}`,
  effective_from_date: "2024-01-01",
  effective_to_date: null,
  file_url: "https://example.org",
  file_type: "html",
  listing_url: "https://example.org",
  summary: null,
  criteria_text: null,
  applicability: [{ lob_id: lob, from: "2024-01-01", to: null }],
  codes: [{ code_system: "ICD10CM", code: "E11.9", relationship: "COVERS", category: null }],
});

function fill(sink: JsonDatasetSink, lob = "X_commercial_US") {
  sink.addPayer({ payer_id: "X", display_name: "Payer X" });
  sink.addPolicy(policy("a"));
  sink.addPolicy(policy("b", lob));
  sink.addLob({ lob_id: "X_commercial_US", payer_id: "X", lob: "commercial", state: null });
  sink.addCode({ code_system: "ICD10CM", code: "E11.9", description: "Diabetes (sample)" });
}

describe("JsonDatasetSink", () => {
  it("writes a dataset that --data loads, with the stored text files beside it", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "json-sink-"));
    const out = path.join(dir, "d.json");
    const sink = new JsonDatasetSink(out);
    const file = await sink.storeText("a.md", "# A\n");
    fill(sink);
    const summary = await sink.finish({ as_of: "2025-01-01", source: "test" });
    expect(summary).toEqual({
      payers: 1,
      lobs: 1,
      codes: 1,
      policies: 2,
      applicabilityLinks: 2,
      codeLinks: 2,
    });
    expect(file).toBe("d.files/a.md");
    expect(readFileSync(path.join(dir, file), "utf8")).toBe("# A\n");
    const loaded = await loadDataset(out);
    expect(loaded.db.policies).toHaveLength(2);
    expect(readdirSync(dir).sort()).toEqual(["d.files", "d.json"]);
  });

  it("refuses a dataset whose references do not hold, leaving nothing", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "json-sink-"));
    const sink = new JsonDatasetSink(path.join(dir, "d.json"));
    await sink.storeText("a.md", "# A\n");
    fill(sink, "X_medicaid_CA");
    await expect(sink.finish({ as_of: null, source: "test" })).rejects.toThrow(
      "policies[1].applicability[0].lob_id: unknown LOB 'X_medicaid_CA'",
    );
    expect(readdirSync(dir)).toEqual([]);
  });

  it("refuses a duplicate policy id when it arrives", () => {
    const sink = new JsonDatasetSink(
      path.join(mkdtempSync(path.join(os.tmpdir(), "js-")), "d.json"),
    );
    sink.addPolicy(policy("a"));
    expect(() => sink.addPolicy(policy("a"))).toThrow("duplicate policy_id 'x/a/2024-01-01'");
  });

  it("abort drops everything; an existing file is kept without force and replaced with it", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "json-sink-"));
    const out = path.join(dir, "d.json");
    const aborted = new JsonDatasetSink(out);
    await aborted.storeText("a.md", "x");
    fill(aborted);
    await aborted.abort();
    expect(readdirSync(dir)).toEqual([]);
    writeFileSync(out, "old");
    const kept = new JsonDatasetSink(out);
    fill(kept);
    await expect(kept.finish({ as_of: null, source: "t" })).rejects.toThrow("already exists");
    expect(readFileSync(out, "utf8")).toBe("old");
    expect(readdirSync(dir)).toEqual(["d.json"]);
    const forced = new JsonDatasetSink(out, true);
    fill(forced);
    await forced.finish({ as_of: null, source: "t" });
    expect(existsSync(out) && readFileSync(out, "utf8").startsWith("{")).toBe(true);
  });
});
