import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { runCli } from "../../../src/cli/run.js";
import {
  describeStateExpansion,
  expandStates,
  SUB_STATE_NAMES,
} from "../../../src/requests/sub-states.js";

function sink() {
  let text = "";
  const stream = new Writable({
    write(chunk, _enc, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

/** Runs the CLI in-process with `--dry-run`: the request it would send, nothing sent. */
async function dryRun(args: string[]) {
  const out = sink();
  const err = sink();
  const code = await runCli([...args, "--dry-run"], {
    env: { COVERAGE_CONFIG_DIR: mkdtempSync(path.join(os.tmpdir(), "coverage-sub-")) },
    stdout: out.stream,
    stderr: err.stream,
    signal: new AbortController().signal,
  });
  const request = JSON.parse(out.text().split("\n")[0]!) as {
    url: string;
    body?: { policies?: { states?: string[] } };
  };
  return { code, request, stderr: err.text() };
}

describe("expandStates (cli.md: states that Medicare splits)", () => {
  it.each([
    [["CA"], ["CA", "NF", "SF"]],
    [["NY"], ["NY", "DN", "QN", "UN"]],
    [["MO"], ["MO", "EM", "WM"]],
    [["TX"], ["TX"]],
    [["NF"], ["NF"]],
    [
      ["CA", "NF"],
      ["CA", "NF", "SF"],
    ],
    [
      ["TX", "CA", "NY"],
      ["TX", "CA", "NY", "NF", "SF", "DN", "QN", "UN"],
    ],
    [
      ["CA", "QQ"],
      ["CA", "QQ", "NF", "SF"],
    ],
    [[], []],
  ])("%j -> %j", (typed, sent) => {
    expect(expandStates(typed)).toEqual(sent);
  });

  it("names every sub-state code it adds, and says nothing when nothing is widened", () => {
    expect(describeStateExpansion(["CA"])).toBe(
      "--state CA also sends NF, SF (Northern California, Southern California): Medicare's sub-state jurisdictions. Add --exact-state to send only the codes typed.",
    );
    expect(describeStateExpansion(["TX", "NF"])).toBeUndefined();
    for (const sub of expandStates(["CA", "NY", "MO"]).filter((s) => s.length === 2))
      if (!["CA", "NY", "MO"].includes(sub)) expect(SUB_STATE_NAMES[sub]).toBeTruthy();
  });
});

describe("--state on every command with it (request sent, stderr line)", () => {
  const expanded = ["CA", "NF", "SF"];
  it.each([
    ["search", ["search", "--code", "CPT:97110"]],
    ["code", ["code", "CPT:97110"]],
    ["matrix", ["matrix", "--code", "CPT:97110"]],
  ])("%s --state CA sends CA, NF, SF and says so once", async (_name, args) => {
    const r = await dryRun([...args, "--state", "CA"]);
    expect(r.code).toBe(0);
    expect(r.request.body?.policies?.states).toEqual(expanded);
    expect(r.stderr.match(/--state CA also sends NF, SF/g)).toHaveLength(1);
  });

  it("search: the body of cli.md's example, byte for byte", async () => {
    const out = sink();
    await runCli(["search", "--code", "CPT:97110", "--state", "CA", "--dry-run"], {
      env: { COVERAGE_CONFIG_DIR: mkdtempSync(path.join(os.tmpdir(), "coverage-sub-")) },
      stdout: out.stream,
      stderr: sink().stream,
      signal: new AbortController().signal,
    });
    expect(out.text()).toContain(
      '"body":{"policies":{"code_refs":{"refs":[{"code_system":"CPT","codes":["97110"]}]},"states":["CA","NF","SF"]}}',
    );
  });

  it("lobs --state ca sends CA, NF, SF as query parameters", async () => {
    const r = await dryRun(["lobs", "--state", "ca"]);
    expect(r.request.url).toContain("states=CA&states=NF&states=SF");
    expect(r.stderr).toContain("--state CA also sends NF, SF");
  });

  it.each([
    ["search", ["search", "--code", "CPT:97110"]],
    ["code", ["code", "CPT:97110"]],
    ["matrix", ["matrix", "--code", "CPT:97110"]],
  ])("%s --exact-state sends the codes as typed, and no line", async (_name, args) => {
    const r = await dryRun([...args, "--state", "CA,ny", "--exact-state"]);
    expect(r.request.body?.policies?.states).toEqual(["CA", "NY"]);
    expect(r.stderr).not.toContain("also sends");
  });

  it("lobs --exact-state", async () => {
    const r = await dryRun(["lobs", "--state", "MO", "--exact-state"]);
    expect(r.request.url).toMatch(/states=MO$/);
  });

  it("a sub-state code alone is sent as it is, without a line", async () => {
    const r = await dryRun(["search", "--state", "NF"]);
    expect(r.request.body?.policies?.states).toEqual(["NF"]);
    expect(r.stderr).not.toContain("also sends");
  });

  it("--quiet keeps the line off stderr, not the codes off the request", async () => {
    const r = await dryRun(["search", "--state", "NY", "--quiet"]);
    expect(r.request.body?.policies?.states).toEqual(["NY", "DN", "QN", "UN"]);
    expect(r.stderr).toBe("");
  });

  it("values inside --body are never expanded; --state beside it is", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "coverage-sub-body-"));
    const file = path.join(dir, "body.json");
    writeFileSync(file, JSON.stringify({ policies: { states: ["CA"] } }));
    const plain = await dryRun(["search", "--body", file]);
    expect(plain.request.body?.policies?.states).toEqual(["CA"]);
    expect(plain.stderr).not.toContain("also sends");
    const flagged = await dryRun(["search", "--body", file, "--state", "MO"]);
    expect(flagged.request.body?.policies?.states).toEqual(["MO", "EM", "WM"]);
  });

  it("matrix: the columns are the sent states (CA's Part A and NF/SF's Part B apart)", async () => {
    const out = sink();
    const code = await runCli(
      ["matrix", "--code", "CPT:97110", "--state", "CA", "--payer", "CMS", "--json"],
      {
        env: { COVERAGE_CONFIG_DIR: mkdtempSync(path.join(os.tmpdir(), "coverage-sub-")) },
        stdout: out.stream,
        stderr: sink().stream,
        signal: new AbortController().signal,
      },
    );
    expect(code).toBe(0);
    const matrix = JSON.parse(out.text()) as { states: Array<string | null> };
    expect(matrix.states.filter((s) => s !== null)).toEqual(
      expect.arrayContaining(["CA", "NF", "SF"]),
    );
  });

  it.each(["search", "lobs", "code", "matrix"])(
    "%s --help says what the sub-state codes mean",
    async (cmd) => {
      const out = sink();
      await runCli([cmd, "--help"], {
        env: { COVERAGE_CONFIG_DIR: mkdtempSync(path.join(os.tmpdir(), "coverage-sub-")) },
        stdout: out.stream,
        stderr: sink().stream,
        signal: new AbortController().signal,
      });
      expect(out.text()).toContain("--exact-state");
      expect(out.text()).toContain("NF (Northern California)");
      expect(out.text()).toContain("QN (Queens, New York)");
    },
  );
});
