import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isInsideFolder } from "../../../src/dataset/check.js";
import { hasStoredFile, loadDataset, parseDataset } from "../../../src/dataset/load.js";
import { CliError } from "../../../src/errors.js";
import { policy } from "../../helpers/build-db.js";

const base = (policies: unknown[], lobs?: unknown[]) => ({
  format: "coverage-dataset",
  version: 1,
  payers: [{ payer_id: "P1", display_name: "Alpha" }],
  lobs: lobs ?? [{ lob_id: "P1_commercial_US", payer_id: "P1", lob: "commercial", state: null }],
  policies,
});

/** The problem lines of a refused dataset, or [] when it loads. */
function problems(raw: unknown): string[] {
  try {
    parseDataset(raw, "inline.json");
    return [];
  } catch (err) {
    if (!(err instanceof CliError)) throw err;
    return err.details;
  }
}

describe("policy_id: <source>/<policy_key>/<effective_from_date>, more segments allowed", () => {
  it.each([
    { id: "src/K1/2024-01-01", ok: true },
    { id: "cms/lcd/x/L1/2024-01-01", ok: true },
    { id: "K1/2024-01-01", ok: false },
    { id: "//2024-01-01", ok: false },
    { id: "src//2024-01-01", ok: false },
    { id: "src/../2024-01-01", ok: false },
    { id: "src/./2024-01-01", ok: false },
  ])("$id -> accepted: $ok", ({ id, ok }) => {
    const found = problems(base([policy(id)]));
    if (ok) expect(found).toEqual([]);
    else
      expect(found).toEqual([expect.stringMatching(/^policies\[0\]\.policy_id: must be <source>/)]);
  });
});

describe("files: paths relative to the dataset's folder, inside it", () => {
  it.each([
    { file: "files/a.pdf", inside: true },
    { file: "./files/a.pdf", inside: true },
    { file: "files/../a.pdf", inside: true },
    { file: "a..b.pdf", inside: true },
    { file: "files/.hidden.pdf", inside: true },
    { file: "files/..", inside: false },
    { file: "a/b/../../..", inside: false },
    { file: "a/b\\..\\..\\..\\c.pdf", inside: false },
    { file: "", inside: false },
    { file: ".", inside: false },
    { file: "/etc/passwd", inside: false },
    { file: "../secret.pdf", inside: false },
    { file: "files/../../secret.pdf", inside: false },
    { file: "..\\secret.pdf", inside: false },
    { file: "C:\\data\\a.pdf", inside: false },
    { file: "\\\\host\\share\\a.pdf", inside: false },
  ])("$file -> inside: $inside", ({ file, inside }) => {
    expect(isInsideFolder(file)).toBe(inside);
    const found = problems(base([policy("src/K1/2024-01-01", { files: { text: file } })]));
    expect(found).toEqual(
      inside ? [] : [expect.stringMatching(/^policies\[0\]\.files\.text: must be a path relative/)],
    );
  });
});

describe("messages", () => {
  it("a field left out is named as missing, not as a wrong value", () => {
    const lobs = [{ lob_id: "P1_commercial_US", payer_id: "P1", lob: "commercial" }];
    expect(problems(base([], lobs))).toEqual(["lobs[0].state: required field missing"]);
  });

  it("more problems than zod can gather in one pass still name the first path", () => {
    const codes = Array.from({ length: 130_000 }, () => ({ code_system: "X", code: "1" }));
    const found = problems(base([policy("src/K1/2024-01-01", { codes })]));
    expect(found).toHaveLength(5);
    expect(found[0]).toMatch(/^policies\[0\]\.codes\[0\]\.code_system: /);
  });
});

describe("loadDataset: the file's bytes", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "coverage-load-"));
  const write = (name: string, bytes: Buffer | string) => {
    const file = path.join(dir, name);
    writeFileSync(file, bytes);
    return file;
  };
  const json = JSON.stringify(base([policy("src/K1/2024-01-01")]));

  it("a UTF-8 byte-order mark is allowed", async () => {
    const loaded = await loadDataset(write("bom.json", `\ufeff${json}`));
    expect(loaded.db.byId.has("src/K1/2024-01-01")).toBe(true);
  });

  it("bytes that are not UTF-8 are refused with exit 2, the file named", async () => {
    const latin1 = Buffer.from(json.replace('"Alpha"', '"Alpha \u00e9"'), "latin1");
    const file = write("latin1.json", latin1);
    await expect(loadDataset(file)).rejects.toMatchObject({
      exitCode: 2,
      message: `bad dataset ${file}`,
      details: ["(root): not UTF-8 text (the format is one UTF-8 JSON file)"],
    });
  });

  it("a replacement character written in the file is text like any other", async () => {
    const loaded = await loadDataset(write("fffd.json", json.replace("Alpha", "Alpha \ufffd")));
    expect(loaded.db.payers.get("P1")?.display_name).toBe("Alpha \ufffd");
  });

  it("hasStoredFile: a file is there; a missing path or a folder is not", async () => {
    mkdirSync(path.join(dir, "files"), { recursive: true });
    writeFileSync(path.join(dir, "files", "k1.pdf"), "%PDF");
    const loaded = await loadDataset(write("with-files.json", json));
    expect(hasStoredFile(loaded, "files/k1.pdf")).toBe(true);
    expect(hasStoredFile(loaded, "files/none.pdf")).toBe(false);
    expect(hasStoredFile(loaded, "files")).toBe(false);
  });
});
