import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadDataset } from "../../../src/dataset/load.js";
import type { DatasetSink } from "../../../src/dataset/sink.js";
import { streamDataset } from "../../../src/dataset/stream.js";
import { UsageError } from "../../../src/errors.js";
import { ROOT, RULES_DATA } from "../../helpers/cli.js";

/** A sink that keeps what it is given, list by list. */
function recorder() {
  const got = {
    payers: [] as unknown[],
    lobs: [] as unknown[],
    codes: [] as unknown[],
    policies: [] as unknown[],
  };
  const sink: DatasetSink = {
    addPayer: (p) => void got.payers.push(p),
    addLob: (l) => void got.lobs.push(l),
    addCode: (c) => void got.codes.push(c),
    addPolicy: (p) => void got.policies.push(p),
    finish: () => Promise.reject(new Error("not used")),
    abort: () => Promise.resolve(),
  };
  return { got, sink };
}

const write = (text: string | Buffer) => {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "coverage-stream-")), "d.json");
  writeFileSync(file, text);
  return file;
};

const DATASETS = [
  path.join(ROOT, "fixtures", "dataset.json"),
  RULES_DATA,
  path.join(ROOT, "test", "fixtures", "acceptance", "dataset.json"),
  path.join(ROOT, "test", "fixtures", "engine-rules", "no-as-of.json"),
];

describe("streamDataset: a dataset's items one at a time, whatever the chunk size", () => {
  it.for(
    DATASETS.flatMap((f) =>
      (f === RULES_DATA ? [1, 7, 4096, 1 << 20] : [13, 4096, 1 << 20]).map(
        (n) => [path.relative(ROOT, f), n, f] as const,
      ),
    ),
  )("%s in chunks of %i bytes: the same records as JSON.parse", async ([, chunkSize, file]) => {
    const raw = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    const { got, sink } = recorder();
    const head = await streamDataset(file, sink, { chunkSize });
    expect(got).toEqual({
      payers: raw.payers,
      lobs: raw.lobs,
      codes: raw.codes ?? [],
      policies: raw.policies,
    });
    expect(head).toEqual({
      as_of: raw.as_of ?? null,
      asOfGiven: "as_of" in raw,
      codesGiven: "codes" in raw,
    });
  });

  it("strings with brackets, quotes, escapes and non-ASCII text; a BOM; unknown keys", async () => {
    const policy = JSON.parse(readFileSync(RULES_DATA, "utf8")).policies[0] as Record<
      string,
      unknown
    >;
    const tricky = { ...policy, title: 'a "[x]" {y} \\\\ \\" ]}, é 😀', summary: "]]}}\\\\" };
    const text =
      "\ufeff" +
      JSON.stringify({
        extra: { nested: [1, { a: "]" }], s: "}" },
        format: "coverage-dataset",
        version: 1,
        payers: [{ payer_id: "P", display_name: "P" }],
        lobs: [],
        policies: [tricky],
        n: -1.5e3,
        t: true,
      });
    for (const chunkSize of [1, 3, 1024]) {
      const { got, sink } = recorder();
      await streamDataset(write(text), sink, { chunkSize });
      expect(got.policies).toEqual([tricky]);
      expect(got.lobs).toEqual([]);
    }
  });

  it.for([
    [
      '{"format": "coverage-dataset", "version": 1, "payers": [1,], "lobs": [], "policies": []}',
      "not valid JSON",
    ],
    [
      '{"format": "coverage-dataset", "version": 1, "payers": [], "lobs": [], "policies": []',
      "unexpected end",
    ],
    [
      '{"format": "coverage-dataset", "version": 1, "payers": [], "lobs": [], "policies": []} x',
      "after the end",
    ],
    ["[1, 2]", "expected '{'"],
    [
      '{"format": "coverage-dataset", "version": 2, "payers": [], "lobs": [], "policies": []}',
      "version: expected 1",
    ],
    [
      '{"format": "coverage-dataset", "version": 1, "payers": [], "lobs": []}',
      "policies: required field missing",
    ],
    [
      '{"format": "coverage-dataset", "version": 1, "payers": null, "lobs": [], "policies": []}',
      "payers: expected array",
    ],
    [
      '{"format": "coverage-dataset", "version": 1, "payers": [{"payer_id": ""}], "lobs": [], "policies": []}',
      "payers[0]",
    ],
  ])("%s: exit 2 naming %s", async ([text, message]) => {
    const { sink } = recorder();
    const err = await streamDataset(write(text as string), sink).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect([(err as UsageError).message, ...(err as UsageError).details].join("\n")).toContain(
      message,
    );
  });

  it("bytes that are not UTF-8 are refused, as the loader refuses them", async () => {
    const text = Buffer.from(
      '{"format": "coverage-dataset", "version": 1, "payers": [{"payer_id": "P", "display_name": "\xff"}], "lobs": [], "policies": []}',
      "latin1",
    );
    const err = await streamDataset(write(text), recorder().sink).catch((e: unknown) => e);
    expect((err as UsageError).details.join("\n")).toContain("not UTF-8");
    await expect(loadDataset(write(text))).rejects.toThrow(UsageError);
  });
});

describe("a JSON dataset too large for one string", () => {
  it("is not reported as a path problem: it says so and suggests data build", async () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "coverage-huge-")), "huge.json");
    // Sparse: no disk space and nothing read; the loader answers from the size alone.
    writeFileSync(file, "");
    truncateSync(file, 600_000_000);
    const err = (await loadDataset(file).catch((e: unknown) => e)) as UsageError;
    expect(err).toBeInstanceOf(UsageError);
    expect(err.exitCode).toBe(2);
    expect(err.message).toContain("too large to load as one JSON text (600 MB");
    expect(err.suggestion).toContain(`coverage data build ${file} -o`);
    rmSync(file);
  });
});
