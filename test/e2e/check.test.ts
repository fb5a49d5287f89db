import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { runInProcess } from "../helpers/run-cli.js";
import { closedPort, startServe, type ServeProcess } from "../helpers/server.js";
import { buildSnapshot, SQLITE } from "../helpers/snapshot.js";

/**
 * `coverage check` through the CLI, in this process: verdicts line by line on a dataset made
 * for the rules (split states, versions and links ending, several diagnoses, a code nobody
 * lists), the input formats and outputs, bad input, the cost in requests, and the same answers
 * through `coverage serve` and a snapshot.
 */

const DATA = path.join(ROOT, "test", "fixtures", "check", "dataset.json");
const TMP = mkdtempSync(path.join(os.tmpdir(), "coverage-check-test-"));

async function check(args: string[], input?: string, env: Record<string, string> = {}) {
  const r = await runInProcess(["--data", DATA, ...args], { input, env });
  return { exitCode: r.exitCode, stdout: r.rawStdout, stderr: r.rawStderr };
}

function file(name: string, text: string): string {
  const p = path.join(TMP, name);
  writeFileSync(p, text);
  return p;
}

type Row = [payer: string | null, lob: string | null, verdict: string, policies: string[]];

interface JsonLine {
  line: number;
  input: Record<string, unknown>;
  results: Array<{
    payer_id: string | null;
    lob: string | null;
    verdict: string;
    policies: Array<{ policy_id: string; verdict: string; category: string | null }>;
  }>;
}

const rowsOf = (l: JsonLine): Row[] =>
  l.results.map((r) => [
    r.payer_id,
    r.lob,
    r.verdict,
    r.policies.map((p) => `${p.policy_id} ${p.verdict}${p.category ? ` (${p.category})` : ""}`),
  ]);

describe("verdicts line by line (one line from flags)", () => {
  const cases: Array<{ name: string; args: string[]; rows: Row[] }> = [
    {
      name: "CA brings NF: the NF LCD supports the lower-case dotless m5450",
      args: [
        "--procedure",
        "97110",
        "--diagnosis",
        "m5450",
        "--state",
        "CA",
        "--date",
        "2026-02-28",
      ],
      rows: [
        [
          "AETNA",
          "commercial",
          "procedure not covered",
          ["aetna/cpb/1/2024-01-01 procedure not covered"],
        ],
        ["CIGNA", "commercial", "mentioned only", ["cigna/mm/1/2024-01-01 mentioned only"]],
        ["CMS", "medicare_part_b", "supported", ["cms-lcd/L1/2025-01-01 supported (Group 1)"]],
      ],
    },
    {
      name: "a link's end is exclusive: Cigna's CA link ends 2026-03-01",
      args: [
        "--procedure",
        "CPT:97110",
        "--diagnosis",
        "M54.50",
        "--state",
        "ca",
        "--date",
        "2026-03-01",
      ],
      rows: [
        [
          "AETNA",
          "commercial",
          "procedure not covered",
          ["aetna/cpb/1/2024-01-01 procedure not covered"],
        ],
        ["CMS", "medicare_part_b", "supported", ["cms-lcd/L1/2025-01-01 supported (Group 1)"]],
      ],
    },
    {
      name: "--exact-state CA leaves the NF jurisdiction out",
      args: [
        "--procedure",
        "97110",
        "--diagnosis",
        "M54.50",
        "--state",
        "CA",
        "--exact-state",
        "--lob",
        "medicare_part_b",
        "--date",
        "2026-02-28",
      ],
      rows: [[null, "medicare_part_b", "not addressed", []]],
    },
    {
      name: "several diagnoses, one excluded: diagnosis not covered with its category",
      args: [
        "--procedure",
        "97110",
        "--diagnosis",
        "M54.50",
        "--diagnosis",
        "Z00.00",
        "--state",
        "NF",
        "--lob",
        "medicare_part_b",
        "--date",
        "2026-05-01",
      ],
      rows: [
        [
          "CMS",
          "medicare_part_b",
          "diagnosis not covered",
          ["cms-lcd/L1/2025-01-01 diagnosis not covered (Group 2)"],
        ],
      ],
    },
    {
      name: "the last day of a version: the older article lists M54.50",
      args: [
        "--procedure",
        "97110",
        "--diagnosis",
        "M54.50",
        "--state",
        "TX",
        "--payer",
        "cms",
        "--date",
        "2025-12-31",
      ],
      rows: [
        ["CMS", "medicare_part_b", "supported", ["cms-article/A1/2025-01-01 supported (Group 1)"]],
      ],
    },
    {
      name: "the first day of the next version: M54.50 is no longer listed",
      args: [
        "--procedure",
        "97110",
        "--diagnosis",
        "M54.50",
        "--state",
        "TX",
        "--payer",
        "CMS",
        "--date",
        "2026-01-01",
      ],
      rows: [
        [
          "CMS",
          "medicare_part_b",
          "diagnosis not listed",
          ["cms-article/A1/2026-01-01 diagnosis not listed"],
        ],
      ],
    },
    {
      name: "a date before every version: not addressed",
      args: ["--procedure", "97110", "--diagnosis", "M54.50", "--date", "2023-12-31"],
      rows: [[null, null, "not addressed", []]],
    },
    {
      name: "a code nobody lists: not addressed",
      args: [
        "--procedure",
        "CPT:99999",
        "--diagnosis",
        "M54.50",
        "--payer",
        "AETNA",
        "--date",
        "2026-05-01",
      ],
      rows: [["AETNA", null, "not addressed", []]],
    },
    {
      name: "covered without diagnosis limits",
      args: ["--procedure", "97112", "--date", "2026-05-01"],
      rows: [
        [
          "AETNA",
          "commercial",
          "no diagnosis limits",
          ["aetna/cpb/1/2024-01-01 no diagnosis limits"],
        ],
      ],
    },
  ];
  it.each(cases)("$name", async ({ args, rows }) => {
    const { exitCode, stdout, stderr } = await check(["check", "--json", ...args]);
    expect(stderr).not.toContain("error");
    expect(exitCode).toBe(0);
    const parsed = JSON.parse(stdout) as { lines: JsonLine[] };
    expect(parsed.lines).toHaveLength(1);
    expect(rowsOf(parsed.lines[0]!)).toEqual(rows);
  });

  it("--json has exactly the shape of cli.md", async () => {
    const { stdout } = await check([
      "check",
      "--json",
      "--procedure",
      "97110",
      "--diagnosis",
      "m54.50",
      "--state",
      "NF",
      "--date",
      "2026-05-01",
      "--lob",
      "medicare-part-b",
    ]);
    expect(JSON.parse(stdout)).toEqual({
      lines: [
        {
          line: 1,
          input: {
            procedure: "CPT:97110",
            diagnoses: ["ICD10CM:M54.50"],
            state: "NF",
            lob: "medicare_part_b",
            payer: null,
            date: "2026-05-01",
          },
          results: [
            {
              payer_id: "CMS",
              lob: "medicare_part_b",
              verdict: "supported",
              policies: [
                { policy_id: "cms-lcd/L1/2025-01-01", verdict: "supported", category: "Group 1" },
              ],
            },
          ],
        },
      ],
    });
  });

  it("--date defaults to the engine's today (the dataset's as_of)", async () => {
    const { stdout } = await check(["check", "--json", "--procedure", "97110"]);
    expect((JSON.parse(stdout) as { lines: JsonLine[] }).lines[0]!.input.date).toBe("2026-06-01");
  });
});

const CSV = [
  "procedure,diagnosis,state,lob,payer,date",
  "97110,m5450,CA,,,2026-02-28",
  'CPT:97110,"M54.50;Z00.00",NF,medicare_part_b,,2026-05-01',
  "97110,M54.50,TX,,CMS,2026-13-01",
  "XYZ:1,M54.50,,,,",
  "97110,M54.50,TX,,CMS,2026-01-01",
  "",
].join("\n");

describe("files", () => {
  it("CSV: each line checked in order, bad lines named by line and column and skipped", async () => {
    const { exitCode, stdout, stderr } = await check([
      "check",
      "--input",
      file("a.csv", CSV),
      "--format",
      "ndjson",
    ]);
    expect(exitCode).toBe(0);
    const lines = stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as JsonLine);
    expect(lines.map((l) => [l.line, l.results.map((r) => `${r.payer_id} ${r.verdict}`)])).toEqual([
      [2, ["AETNA procedure not covered", "CIGNA mentioned only", "CMS supported"]],
      [3, ["CMS diagnosis not covered"]],
      [6, ["CMS diagnosis not listed"]],
    ]);
    expect(stderr).toContain("a.csv, line 4, column date: '2026-13-01' is not a real date");
    expect(stderr).toContain("a.csv, line 5, column procedure: 'XYZ:1': unknown code system 'XYZ'");
    expect(stderr).toMatch(
      /Checked 3 lines \(2 bad lines skipped\): 1 procedure not covered, 1 diagnosis not covered, 1 supported, 1 diagnosis not listed, 1 mentioned only\./,
    );
  });

  it("a code of the wrong shape: the fix is a sentence of its own, capitalised (findings newcomer-2 N13)", async () => {
    const csv = "procedure,diagnosis\n97110,E11.\nXYZW,M54.50\n";
    const { exitCode, stderr } = await check(["check", "--input", file("shape.csv", csv)]);
    expect(exitCode).toBe(0);
    expect(stderr).toContain(
      "'E11.' is not an ICD-10-CM code. An ICD-10-CM code is a letter, a digit,",
    );
    expect(stderr).toContain("'XYZW' is not a HCPCS Level II code. A HCPCS Level II code is");
  });

  it("a 10,000-digit code is quoted back cut, not whole (findings reliability-2 C8)", async () => {
    const csv = `procedure,diagnosis\nCPT:${"9".repeat(10_000)},M54.50\n`;
    const { exitCode, stderr } = await check(["check", "--input", file("long-code.csv", csv)]);
    expect(exitCode).toBe(0);
    expect(stderr).toContain("line 2, column procedure: CPT:999");
    expect(stderr).toContain("… (10,005 characters)");
    expect(Math.max(...stderr.split("\n").map((l) => l.length))).toBeLessThan(400);
  });

  it("NDJSON from stdin, flags filling what a line leaves out", async () => {
    const ndjson = [
      '{"procedure":"97110","diagnosis":["M54.50"]}',
      "",
      '{"procedure":"97110","diagnosis":"G47.33","state":"TX"}',
      "not json",
    ].join("\n");
    const { exitCode, stdout, stderr } = await check(
      [
        "check",
        "--input",
        "-",
        "--json",
        "--state",
        "NF",
        "--lob",
        "medicare_part_b",
        "--date",
        "2026-05-01",
      ],
      ndjson,
    );
    expect(exitCode).toBe(0);
    const lines = (JSON.parse(stdout) as { lines: JsonLine[] }).lines;
    expect(lines.map((l) => [l.line, l.input.state, l.results[0]!.verdict])).toEqual([
      [1, "NF", "supported"],
      [3, "TX", "supported"],
    ]);
    expect(stderr).toContain("stdin, line 4: not valid JSON");
  });

  it("Excel's CSV (byte-order mark, CRLF, last columns left out) and NDJSON with a BOM", async () => {
    const excel =
      "\uFEFFprocedure,diagnosis,state,date\r\n97110,M54.50,NF,2026-05-01\r\n97112,M54.50\r\n";
    const csv = await check([
      "check",
      "--input",
      file("excel.csv", excel),
      "--format",
      "ndjson",
      "--date",
      "2026-05-01",
    ]);
    expect(csv.stderr).not.toContain("skipped");
    expect(
      csv.stdout
        .trim()
        .split("\n")
        .map((l) => (JSON.parse(l) as JsonLine).results.map((r) => `${r.payer_id} ${r.verdict}`)),
    ).toEqual([["AETNA procedure not covered", "CMS supported"], ["AETNA no diagnosis limits"]]);
    const nd = await check(
      ["check", "--input", "-", "--format", "ndjson", "--date", "2026-05-01"],
      '\uFEFF{"procedure":"97112"}\n',
    );
    expect((JSON.parse(nd.stdout) as JsonLine).results[0]!.verdict).toBe("no diagnosis limits");
  });

  it("--format csv: one row a result, lists joined by ;", async () => {
    const { stdout } = await check(["check", "--input", file("b.csv", CSV), "--format", "csv"]);
    const rows = stdout.trim().split("\r\n");
    expect(rows[0]).toBe(
      "line,procedure,diagnoses,state,date,payer_id,lob,verdict,policy_ids,policy_verdicts,categories,rule",
    );
    expect(rows[4]).toBe(
      "3,CPT:97110,ICD10CM:M54.50;ICD10CM:Z00.00,NF,2026-05-01,CMS,medicare_part_b,diagnosis not covered,cms-lcd/L1/2025-01-01,diagnosis not covered,Group 2,",
    );
    expect(rows).toHaveLength(6);
  });

  it("the table has one row per line and payer x LOB", async () => {
    const { stdout } = await check(["check", "--input", file("c.csv", CSV)], undefined, {
      COLUMNS: "200",
    });
    expect(stdout).toMatchSnapshot();
  });

  it("the table at 80 and 120 columns keeps every code and id of --json whole", async () => {
    // The bundled sample: its ids are long (uhc/commercial/outpatient-...), and CA brings NF, SF.
    const f = file(
      "ids.csv",
      "procedure,diagnosis,state\n97110,M54.50;M25.561,CA\nE0601,G47.33,NY\n",
    );
    const bundled = (args: string[], env: Record<string, string> = {}) =>
      runInProcess(["-q", "check", "--input", f, ...args], { env });
    const json = await bundled(["--json"]);
    const lines = (JSON.parse(json.stdout) as { lines: JsonLine[] }).lines;
    const words = new Set<string>();
    for (const l of lines) {
      words.add(String(l.line)).add(String(l.input.procedure));
      for (const d of l.input.diagnoses as string[]) words.add(d.slice(d.indexOf(":") + 1));
      for (const r of l.results) {
        if (r.payer_id) words.add(r.payer_id);
        if (r.lob) words.add(r.lob);
        for (const p of r.policies) words.add(p.policy_id);
      }
    }
    expect(words).toContain("M25.561");
    expect(words).toContain("uhc/commercial/outpatient-physical-occupational-therapy/2026-11-15");
    for (const columns of ["80", "120"]) {
      const { exitCode, stdout } = await bundled([], { COLUMNS: columns, NO_COLOR: "1" });
      expect(exitCode).toBe(0);
      const out = stdout.split("\n");
      for (const word of words) {
        const whole = new RegExp(`(^|\\s)${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(:|\\s|$)`);
        expect(
          out.some((l) => whole.test(l)),
          `${word} whole at ${columns}`,
        ).toBe(true);
      }
      for (const l of out) expect(l.length, l).toBeLessThanOrEqual(Number(columns));
    }
  });

  it("--fail-on exits 6 when a row has a named verdict, 0 when none has", async () => {
    const f = file("d.csv", CSV);
    const failed = await check([
      "check",
      "--input",
      f,
      "--format",
      "csv",
      "--fail-on",
      "Diagnosis-Not-Covered,not_addressed",
    ]);
    expect(failed.exitCode).toBe(6);
    expect(failed.stdout).toContain("diagnosis not covered");
    expect(failed.stderr).toContain("1 row diagnosis not covered (--fail-on)");
    const passed = await check([
      "check",
      "--input",
      f,
      "--format",
      "csv",
      "--fail-on",
      "not-addressed",
    ]);
    expect(passed.exitCode).toBe(0);
    const bad = await check(["check", "--input", f, "--fail-on", "rejected"]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain("--fail-on 'rejected' is not a verdict");
  });

  it("--strict refuses the file before any request (exit 2, nothing on stdout)", async () => {
    const port = await closedPort();
    const { exitCode, stdout, stderr } = await check(
      ["--api-url", `http://127.0.0.1:${port}`, "check", "--input", "-", "--strict"],
      CSV,
      { COVERAGE_API_KEY: "k" },
    );
    expect(exitCode).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain("--strict: 2 bad lines in stdin; nothing was checked");
    expect(stderr).toContain("stdin, line 4, column date");
  });

  it("a quote that never closes refuses the file (exit 2) naming the line where it opened", async () => {
    const text =
      'procedure,diagnosis,state\n97110,M54.50,CA\n"97110,M54.50,CA\nE0601,G47.33,NY\nE0601,G47.33,TX\n';
    const { exitCode, stdout, stderr } = await check([
      "check",
      "--input",
      file("stray.csv", text),
      "--format",
      "ndjson",
    ]);
    expect(exitCode).toBe(2);
    expect(stderr).toContain(
      "stray.csv, line 3: the quote that opens a value on this line is never closed",
    );
    expect(stdout).not.toMatch(/"line":[345]/);
  });

  it("megabytes of lines after an open quote: refused at the record's bound, not read on", async () => {
    const lines = "E0601,G47.33,NY\n".repeat(400_000);
    const text = `procedure,diagnosis,state\n97110,M54.50,CA\n"97110,M54.50,CA\n${lines}`;
    const { exitCode, stderr } = await check(["check", "--input", "-", "--format", "csv"], text);
    expect(exitCode).toBe(2);
    expect(stderr).toContain(
      "stdin, line 3: the quote that opens a value on this line is still open 262,144 characters later",
    );
    expect(stderr).not.toContain("skipped");
  });

  it("stray quotes skip their own line only; the summary counts every line", async () => {
    // 9 lines after the header: one blank, one value over two lines, 4 bad, 3 claims.
    const { exitCode, stdout, stderr } = await check([
      "check",
      "--input",
      path.join(ROOT, "test", "fixtures", "check", "stray-quotes.csv"),
      "--format",
      "ndjson",
    ]);
    expect(exitCode).toBe(0);
    expect(
      stdout
        .trim()
        .split("\n")
        .map((l) => (JSON.parse(l) as JsonLine).line),
    ).toEqual([4, 6, 10]);
    for (const line of [2, 3, 5, 8])
      expect(stderr.split(`stray-quotes.csv, line ${line}`)).toHaveLength(2);
    expect(stderr).toContain(
      "Checked 3 lines (4 bad lines skipped, 1 blank line, 1 line inside a quoted value)",
    );
  });

  it("a line of a million characters is a bad line; the others are checked", async () => {
    const text = `procedure,diagnosis\n97110,${"M".repeat(1_000_000)}\n97112,\n`;
    const { exitCode, stdout, stderr } = await check([
      "check",
      "--input",
      file("long.csv", text),
      "--format",
      "ndjson",
      "--date",
      "2026-05-01",
    ]);
    expect(exitCode).toBe(0);
    expect(stderr).toContain("long.csv, line 2: longer than 65,536 characters");
    expect(
      stdout
        .trim()
        .split("\n")
        .map((l) => (JSON.parse(l) as JsonLine).line),
    ).toEqual([3]);
  });
});

describe("cost: one request per distinct combination", () => {
  const many = [
    "procedure,diagnosis,state",
    ...Array.from({ length: 3000 }, (_, i) => `97110,${i % 2 ? "M54.50" : "G47.33"},TX`),
  ].join("\n");

  it("--dry-run prints one request for thousands of lines of one combination", async () => {
    const { exitCode, stdout } = await check([
      "check",
      "--input",
      file("many.csv", many),
      "--dry-run",
      "--date",
      "2026-05-01",
    ]);
    expect(exitCode).toBe(0);
    const requests = stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { body: unknown });
    expect(requests).toEqual([
      {
        method: "POST",
        url: "http://local/v1/policies/filter",
        headers: { "x-api-key": "***", "content-type": "application/json" },
        body: {
          policies: {
            code_refs: { refs: [{ code_system: "CPT", codes: ["97110"] }] },
            states: ["TX"],
            effective_date: { start: "2026-05-01", end: "2026-05-01" },
          },
          sort: "policy_id_asc",
          limit: 100,
          offset: 0,
          include_applicability: true,
          include_code_groups: true,
        },
      },
    ]);
  });

  it("--verbose counts the requests sent", async () => {
    const { stderr } = await check([
      "check",
      "--input",
      file("many2.csv", many),
      "--format",
      "ndjson",
      "--verbose",
      "--date",
      "2026-05-01",
    ]);
    expect(stderr).toContain(
      "check: 1 filter request for 1 distinct (procedure, state, LOB, payer, date) of 3000 lines.",
    );
  });

  it("--state CA asks for CA, NF and SF", async () => {
    const { stdout } = await check(["check", "--procedure", "97110", "--state", "CA", "--dry-run"]);
    expect(
      (JSON.parse(stdout) as { body: { policies: { states: string[] } } }).body.policies.states,
    ).toEqual(["CA", "NF", "SF"]);
  });
});

describe("bad input: a clear message, exit 2", () => {
  const cases: Array<{ name: string; args: string[]; text?: string; message: string }> = [
    {
      name: "a header without diagnosis",
      args: [],
      text: "procedure,state\n97110,CA\n",
      message: "line 1 (header): no 'diagnosis' column",
    },
    { name: "an empty file", args: [], text: "", message: "is empty: there is no line to check" },
    {
      name: "a JSON array",
      args: [],
      text: '[{"procedure":"97110"}]',
      message: "a JSON array, not NDJSON",
    },
    { name: "a binary file", args: [], text: "\u0000\u0001\u0002PK", message: "not a text file" },
    {
      name: "an unknown LOB",
      args: ["--lob", "gold"],
      text: "procedure,diagnosis\n97110,\n",
      message: "--lob 'gold' is not a LOB category",
    },
    {
      name: "a state name",
      args: ["--state", "Texas"],
      text: "procedure,diagnosis\n97110,\n",
      message: "--state 'Texas' is a state name",
    },
    {
      name: "a bad --date",
      args: ["--date", "06/15/2026"],
      text: "procedure,diagnosis\n97110,\n",
      message: "--date '06/15/2026' is not a date in the form YYYY-MM-DD",
    },
  ];
  it.each(cases)("$name", async ({ args, text, message }) => {
    const { exitCode, stdout, stderr } = await check(["check", "--input", "-", ...args], text);
    expect(stderr).toContain(message);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(stdout).toBe("");
    expect(exitCode).toBe(2);
  });

  const flagCases: Array<{ name: string; args: string[]; message: string }> = [
    { name: "neither --procedure nor --input", args: [], message: "check needs --procedure CODE" },
    {
      name: "a diagnosis of another system",
      args: ["--procedure", "97110", "--diagnosis", "CPT:97112"],
      message: "--diagnosis 'CPT:97112' is a CPT code",
    },
    {
      name: "an unknown payer",
      args: ["--procedure", "97110", "--payer", "AETN"],
      message: "--payer 'AETN' is not a payer id of the catalogue",
    },
    {
      name: "a missing file",
      args: ["--input", path.join(TMP, "nope.csv")],
      message: "--input: cannot read",
    },
    { name: "a folder", args: ["--input", TMP], message: "is a folder" },
  ];
  it.each(flagCases)("$name", async ({ args, message }) => {
    const { exitCode, stderr } = await check(["check", ...args]);
    expect(stderr).toContain(message);
    expect(exitCode).toBe(2);
  });
});

describe("the same verdicts through coverage serve and a snapshot", () => {
  let server: ServeProcess;
  beforeAll(async () => {
    server = await startServe(["--data", DATA, "--quiet"], { COVERAGE_SERVE_KEY: "check-key" });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("coverage serve answers as the local engine does", async () => {
    const csv = file("serve.csv", CSV);
    const local = await check(["check", "--input", csv, "--json", "--payer", "cms"]);
    const served = await check(
      ["--api-url", server.url, "check", "--input", csv, "--json", "--payer", "cms"],
      undefined,
      { COVERAGE_API_KEY: "check-key" },
    );
    expect(served.exitCode).toBe(0);
    expect(served.stdout).toBe(local.stdout);
    expect(JSON.parse(served.stdout)).toMatchObject({
      lines: [{ line: 2 }, { line: 3 }, { line: 6 }],
    });
  });

  it.skipIf(!SQLITE)("a snapshot answers as its JSON dataset does", async () => {
    const db = await buildSnapshot(DATA);
    const csv = file("snap.csv", CSV);
    const local = await check(["check", "--input", csv, "--json"]);
    const snap = await check(["--data", db, "check", "--input", csv, "--json"]);
    expect(snap.exitCode).toBe(0);
    expect(snap.stdout).toBe(local.stdout);
  });
});
