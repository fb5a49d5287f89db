import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, RULES_DATA } from "../helpers/cli.js";
import { runInProcess } from "../helpers/run-cli.js";

const COMMANDS_DATA = path.join(ROOT, "test", "fixtures", "commands", "dataset.json");
const TABLE_ENV = { COLUMNS: "100", NO_COLOR: "1" };
const run = (args: string[], data = RULES_DATA) =>
  runInProcess(["--local", "--data", data, ...args], { env: TABLE_ENV });

describe("coverage policy (e2e)", () => {
  it.each([
    { id: "a/pt/2025-01-01", data: RULES_DATA },
    { id: "a/pt/2024-01-01", data: RULES_DATA },
    { id: "cms-lcd/L1/2026-07-01", data: RULES_DATA },
    { id: "acme/therapy/2026-05-15", data: COMMANDS_DATA },
  ])("table view of $id", async ({ id, data }) => {
    const r = await run(["policy", id], data);
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatchSnapshot();
  });

  it.each([
    { id: "a/pt/2025-01-01", today: undefined, status: "active" },
    { id: "a/pt/2024-01-01", today: undefined, status: "retired" },
    { id: "cms-lcd/L1/2026-07-01", today: undefined, status: "upcoming" },
    { id: "cms-lcd/L1/2026-07-01", today: "2026-07-01", status: "active" },
    { id: "a/pt/2025-01-01", today: "2024-06-01", status: "upcoming" },
  ])("$id on $today is $status", async ({ id, today, status }) => {
    const r = await run(["policy", id, ...(today ? ["--today", today] : [])]);
    expect(r.stdout).toMatch(new RegExp(`^Status\\s+${status} (from|starts|ends|ended) `, "m"));
  });

  it.each([
    { id: "updates", says: "run `coverage updates` instead" },
    { id: "filter", says: "run `coverage search` instead" },
    { id: "a/pt/2025-01-01/download-url", says: "run `coverage download ID`" },
    { id: "../payers", says: "no empty, `.` or `..` segments" },
    { id: "a/./pt/2025-01-01", says: "no empty, `.` or `..` segments" },
    { id: "updates/", says: "no empty, `.` or `..` segments" },
    { id: "a/pt/2025-01-01/", says: "no empty, `.` or `..` segments" },
    { id: "/a/pt/2025-01-01", says: "no empty, `.` or `..` segments" },
  ])("$id would address another path, not a policy: exit 4", async ({ id, says }) => {
    const r = await run(["policy", id, "--json"]);
    expect(r.exitCode).toBe(4);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("error: Policy not found");
    expect(r.stderr).toContain(says);
  });

  it("strips control sequences that come from the data", async () => {
    const r = await run(["policy", "acme/therapy/2026-05-15"], COMMANDS_DATA);
    expect(r.stdout).not.toContain("\u001b");
    expect(r.stdout.split("\n")[0]).toBe("Outpatient Therapy Services");
  });

  it("shows codes by relationship and applicability from every link ever", async () => {
    const r = await run(["policy", "acme/therapy/2026-05-15"], COMMANDS_DATA);
    const text = r.stdout;
    expect(text.indexOf("Codes: Covers")).toBeLessThan(text.indexOf("Codes: Does not cover"));
    expect(text.indexOf("Codes: Does not cover")).toBeLessThan(text.indexOf("Codes: References"));
    // The BOLT link ended on 2026-06-01 (today): still part of the detail's applicability.
    expect(text).toMatch(/^bolt Insurance\s+medicaid · CA$/m);
    expect(text).toMatch(/^Acme Health\s+commercial · nationwide\n\s+medicaid · CA$/m);
  });

  it("--criteria prints only the criteria markdown, as stored", async () => {
    const r = await run(["policy", "a/pt/2025-01-01", "--criteria"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("## Criteria\n\n- A written plan of care.");
  });

  it("--criteria without criteria: nothing on stdout, a warning, exit 0", async () => {
    const r = await run(["policy", "cms-ncd/240.4/2008-03-13", "--criteria"]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("no criteria text has been extracted for cms-ncd/240.4/2008-03-13");
  });

  it("--json prints the detail exactly (nationwide state key absent)", async () => {
    const r = await run(["policy", "cms-ncd/240.4/2008-03-13", "--json"]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      policy_id: "cms-ncd/240.4/2008-03-13",
      policy_number: "240.4",
      title: "Continuous Positive Airway Pressure (CPAP) Therapy for Obstructive Sleep Apnea",
      effective_from_date: "2008-03-13",
      effective_to_date: null,
      file_url: "https://www.cms.gov/ncd/240.4",
      file_type: "html",
      listing_url: "https://www.cms.gov/ncd",
      summary: "CPAP for adults with obstructive sleep apnea after a qualifying sleep test.",
      applicability: [
        { payer_ids: ["CMS"], payer_names: ["Medicare (CMS)"], lobs: ["medicare_part_b"] },
      ],
      code_groups: [
        {
          code_system: "HCPCS",
          relationship: "COVERS",
          category: "Devices",
          codes: ["E0601"],
          descriptions: ["Continuous positive airway pressure (CPAP) device"],
        },
        {
          code_system: "ICD10CM",
          relationship: "COVERS",
          category: null,
          codes: ["G4733"],
          descriptions: ["Obstructive sleep apnea (adult) (pediatric)"],
        },
      ],
      criteria_text: null,
    });
  });

  it("ndjson is one line, csv a header and one row", async () => {
    const nd = await run(["policy", "a/pt/2025-01-01", "--format", "ndjson"]);
    expect(nd.stdout.split("\n")).toHaveLength(1);
    expect(JSON.parse(nd.stdout).policy_id).toBe("a/pt/2025-01-01");
    const csv = await run(["policy", "a/pt/2025-01-01", "--format", "csv"]);
    const [header, row, ...rest] = csv.stdout.split("\r\n");
    expect(header).toBe(
      "policy_id,policy_number,title,effective_from_date,effective_to_date,file_url,file_type,listing_url,summary,applicability,code_groups,criteria_text",
    );
    expect(rest).toEqual([]);
    expect(row).toMatch(/^a\/pt\/2025-01-01,PT-100,Physical Therapy Services,2025-01-01,,/);
    // criteria_text holds bare line breaks: quoted (RFC 4180), so the one record spans lines.
    expect(row).toMatch(/,"## Criteria\n\n- A written plan of care\.\n"$/);
  });

  it.each([
    { id: "nope/1/2020-01-01", message: "Policy not found" },
    // A key (no date) without versions: the API's 404.
    { id: "a/nope", message: "Policy not found" },
  ])("unknown id $id: exit 4, a message saying what to do", async ({ id, message }) => {
    const r = await run(["policy", id]);
    expect(r.exitCode).toBe(4);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain(message);
    expect(r.stderr).toContain("coverage search");
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it.each([
    { key: "a/pt", today: undefined, id: "a/pt/2025-01-01" },
    { key: "a/pt", today: "2024-06-01", id: "a/pt/2024-01-01" },
    // None in effect yet: the latest.
    { key: "cms-lcd/L1", today: undefined, id: "cms-lcd/L1/2026-07-01" },
  ])("a key means today's version, else the latest: $key on $today", async ({ key, today, id }) => {
    const r = await run(["policy", key, "--json", ...(today ? ["--today", today] : [])]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout).policy_id).toBe(id);
  });

  it.each([
    { id: "a/pt/2025-01-01", url: "http://local/v1/policies/a/pt/2025-01-01" },
    { id: "x/a b/c?d/2020-01-01", url: "http://local/v1/policies/x/a%20b/c%3Fd/2020-01-01" },
  ])("--dry-run keeps the slashes, encodes each segment: $id", async ({ id, url }) => {
    const r = await run(["policy", id, "--dry-run"]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ method: "GET", url, headers: { "x-api-key": "***" } });
  });
});

describe("the policy view shows the summary (finding 28)", () => {
  it("as plain text, wrapped, under its heading; none when the policy has no summary", async () => {
    const r = await runInProcess(["--quiet", "policy", "aetna/cpb/0325/2025-06-01"], {
      env: { COLUMNS: "80", NO_COLOR: "1" },
    });
    expect(r.exitCode).toBe(0);
    const summary = r.stdout.split("\n\n").find((block) => block.startsWith("Summary\n"));
    expect(summary).toMatch(/^Summary\nAetna considers outpatient physical therapy medically/);
    expect(summary).not.toMatch(/[<>]/);
    for (const line of summary!.split("\n")) expect(line.length).toBeLessThanOrEqual(80);
    const none = await runInProcess(["--quiet", "policy", "cms-ncd/150.3/2007-01-01"]);
    expect(none.exitCode).toBe(0);
    expect(none.stdout).not.toMatch(/^Summary$/m);
  });
});

describe("a version id whose date does not exist (finding 30)", () => {
  it("says the date is not real and names no version in effect on it", async () => {
    const r = await runInProcess(["--quiet", "policy", "cms-lcd/L33718/2026-02-30"]);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain("starts on 2026-02-30, which is not a real date");
    expect(r.stderr).not.toContain("in effect on 2026-02-30");
    expect(r.stderr).toContain("versions: cms-lcd/L33718/2024-01-01");
  });
});

describe("an empty policy id (findings newcomer, bad input 40)", () => {
  it.each([
    ["policy", ""],
    ["policy", "  "],
    ["download", ""],
    ["diff", "", ""],
  ])(
    "%s '%s': exit 2 'the policy id is empty' with an example, not the wire's path.policy_id",
    async (...args) => {
      const r = await run(args);
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain("error: the policy id is empty");
      expect(r.stderr).toContain("cms-lcd/L33718/2026-11-01");
      expect(r.stderr).not.toContain("path.policy_id");
    },
  );
});
