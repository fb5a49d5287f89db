import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runInProcess } from "../../helpers/run-cli.js";
import {
  describeStateExpansion,
  expandStates,
  SUB_STATE_NAMES,
} from "../../../src/requests/sub-states.js";

async function dryRun(args: string[]) {
  const run = await runInProcess([...args, "--dry-run"]);
  const code = run.exitCode;
  const request = JSON.parse(run.rawStdout.split("\n")[0]!) as {
    url: string;
    body?: { policies?: { states?: string[] } };
  };
  return { code, request, stderr: run.rawStderr };
}

describe("expandStates (cli.md: states that Medicare splits)", () => {
  it.each([
    [["CA"], ["CA", "NF", "SF"]],
    [["NY"], ["NY", "DN", "QN", "UN"]],
    [["MO"], ["MO", "EM", "WM"]],
    [["TX"], ["TX"]],
    [["NF"], ["NF", "CA"]],
    [["sf"], ["sf", "CA"]],
    [["DN"], ["DN", "NY"]],
    [["QN"], ["QN", "NY"]],
    [["UN"], ["UN", "NY"]],
    [
      ["EM", "WM"],
      ["EM", "WM", "MO"],
    ],
    [
      ["CA", "NF"],
      ["CA", "NF", "SF"],
    ],
    [
      ["NF", "CA"],
      ["NF", "CA", "SF"],
    ],
    [
      ["TX", "UN", "NF"],
      ["TX", "UN", "NF", "NY", "CA"],
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
    expect(describeStateExpansion(["TX"])).toBeUndefined();
    expect(describeStateExpansion(["CA", "NF"])).toBe(describeStateExpansion(["CA"]));
    expect(describeStateExpansion(["TX", "NF"])).toBe(
      "--state NF also sends CA: a policy filed for the whole state applies in each part of it. Add --exact-state to send only the codes typed.",
    );
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
    const run = await runInProcess(["search", "--code", "CPT:97110", "--state", "CA", "--dry-run"]);
    expect(run.rawStdout).toContain(
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

  it.each([
    ["search", ["search"], "NF", ["NF", "CA"]],
    ["code", ["code", "CPT:97110"], "DN", ["DN", "NY"]],
    ["matrix", ["matrix", "--code", "CPT:97110"], "wm", ["WM", "MO"]],
  ])("%s: a sub-state code brings its state, and says so", async (_name, args, typed, sent) => {
    const r = await dryRun([...args, "--state", typed]);
    expect(r.request.body?.policies?.states).toEqual(sent);
    expect(r.stderr).toContain(
      `--state ${sent[0]} also sends ${sent[1]}: a policy filed for the whole state`,
    );
    const exact = await dryRun([...args, "--state", typed, "--exact-state"]);
    expect(exact.request.body?.policies?.states).toEqual([sent[0]]);
    expect(exact.stderr).not.toContain("also sends");
  });

  it("lobs --state NF sends NF and CA", async () => {
    const r = await dryRun(["lobs", "--state", "NF"]);
    expect(r.request.url).toContain("states=NF&states=CA");
    expect(r.stderr).toContain("--state NF also sends CA");
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
    const run = await runInProcess([
      "matrix",
      "--code",
      "CPT:97110",
      "--state",
      "CA",
      "--payer",
      "CMS",
      "--json",
    ]);
    expect(run.exitCode).toBe(0);
    const matrix = JSON.parse(run.rawStdout) as { states: Array<string | null> };
    expect(matrix.states.filter((s) => s !== null)).toEqual(
      expect.arrayContaining(["CA", "NF", "SF"]),
    );
  });

  it.each(["search", "lobs", "code", "matrix"])(
    "%s --help says what the sub-state codes mean",
    async (cmd) => {
      const run = await runInProcess([cmd, "--help"]);
      expect(run.rawStdout).toContain("--exact-state");
      expect(run.rawStdout).toContain("NF (Northern California)");
      expect(run.rawStdout).toContain("QN (Queens, New York)");
    },
  );
});
