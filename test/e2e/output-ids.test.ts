import { describe, expect, it } from "vitest";
import { runInProcess } from "../helpers/run-cli.js";

/** Every string under one of `keys` in a JSON answer, however deep. */
function collect(value: unknown, keys: readonly string[], out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) collect(v, keys, out);
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) {
      if (!keys.includes(k)) collect(v, keys, out);
      else for (const s of [v].flat()) if (typeof s === "string") out.add(s);
    }
  return out;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// cli.md Output: "Tables never break an id": each command's ids (read from its --json) appear
// whole on one line of its table, at 80 and at 120 columns; no line is wider than the terminal.
const CASES: Array<[string[], string[]]> = [
  [["updates", "--days", "60"], ["policy_id"]],
  [["updates", "--days", "60", "--changes"], ["policy_id"]],
  [["updates", "--days", "60", "--fields", "title,policy_id,payer_display_name"], ["policy_id"]],
  [["versions", "uhc/commercial/outpatient-physical-occupational-therapy"], ["policy_id"]],
  [["versions", "cms-lcd/L33718"], ["policy_id"]],
  [["search", "--code", "CPT:97110", "--state", "CA"], ["policy_id"]],
  [["search", "--all", "--limit", "100"], ["policy_id"]],
  [["code", "CPT:97110"], ["policy_id"]],
  [["code", "HCPCS:E0601", "--state", "NF"], ["policy_id"]],
  [["matrix", "--code", "CPT:97110"], ["policy_numbers"]],
  [["lobs", "--all"], ["lob_id"]],
  [["payers", "--all"], ["payer_id"]],
  [["policy", "uhc/commercial/outpatient-physical-occupational-therapy"], ["policy_id"]],
];

describe.concurrent("tables keep every id whole", () => {
  it.for(CASES.map(([args, keys]) => [args.join(" "), args, keys] as const))(
    "%s",
    async ([, args, keys], { expect: expectHere }) => {
      const json = await runInProcess(["--quiet", ...args, "--json"]);
      expectHere(json.exitCode, json.stderr).toBe(0);
      const ids = collect(JSON.parse(json.stdout), keys);
      expectHere(ids.size).toBeGreaterThan(0);
      for (const columns of ["80", "120"]) {
        const r = await runInProcess(["--quiet", ...args], {
          env: { COLUMNS: columns, NO_COLOR: "1" },
        });
        expectHere(r.exitCode).toBe(0);
        const lines = r.stdout.split("\n");
        for (const id of ids) {
          const whole = new RegExp(`(^|\\s)${escape(id)}(\\s|$)`);
          expectHere(
            lines.some((l) => whole.test(l)),
            `${id} whole on a line at ${columns}`,
          ).toBe(true);
        }
        // The policy view's source and listing URLs are links, left to the terminal.
        if (args[0] !== "policy")
          for (const line of lines)
            expectHere(line.length, line).toBeLessThanOrEqual(Number(columns));
      }
    },
  );

  it("an id longer than the terminal still prints whole, on a line of its own", async () => {
    const r = await runInProcess(
      ["--quiet", "versions", "uhc/commercial/outpatient-physical-occupational-therapy"],
      { env: { COLUMNS: "40", NO_COLOR: "1" } },
    );
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split("\n")).toContain(
      "uhc/commercial/outpatient-physical-occupational-therapy/2026-11-15",
    );
  });
});

/** The styles (SGR codes) a line leaves open at its end: none when it closes what it opens. */
function openStyles(line: string): number[] {
  const open = new Set<number>();
  const closes: Record<number, number[]> = { 22: [1, 2], 23: [3], 24: [4], 27: [7], 29: [9] };
  // eslint-disable-next-line no-control-regex
  for (const m of line.matchAll(/\u001b\[([\d;]*)m/g))
    for (const code of (m[1] || "0").split(";").map(Number)) {
      const ended =
        code === 0
          ? [...open]
          : code === 39
            ? [...open].filter((c) => c >= 30 && c < 38)
            : code === 49
              ? [...open].filter((c) => c >= 40 && c < 48)
              : closes[code];
      if (ended) for (const c of ended) open.delete(c);
      else open.add(code);
    }
  return [...open];
}

// Finding 26: bold or dim never runs from one line into the next (a header into a date).
describe.concurrent("styles end with their line", () => {
  it.for(
    [
      ["updates", "--days", "60", "--changes"],
      ["versions", "cms-lcd/L33718"],
      ["search", "--code", "CPT:97110", "--state", "CA"],
      ["search", "--code", "HCPCS:E0601", "--applicability"],
      ["code", "CPT:97110"],
      ["matrix", "--code", "CPT:97110"],
      ["policy", "cms-lcd/L33718"],
      ["diff", "cms-lcd/L33718"],
      ["lobs"],
    ].map((args) => [args.join(" "), args] as const),
  )("%s", async ([, args], { expect: expectHere }) => {
    for (const columns of ["80", "120"]) {
      const r = await runInProcess(["--quiet", ...args], {
        env: { COLUMNS: columns, FORCE_COLOR: "1" },
      });
      expectHere(r.exitCode).toBe(0);
      expectHere(r.stdout).toContain("\u001b[");
      for (const line of r.stdout.split("\n")) expectHere(openStyles(line), line).toEqual([]);
    }
  });
});

// Finding 9: `--help` fits 80 columns off a terminal (words are never broken by the terminal);
// only example commands, which are copied whole, may be wider.
describe("help fits 80 columns", () => {
  it("the root and every command's --help", async () => {
    const root = await runInProcess(["--help"]);
    const names = (root.stdout.split("Commands:")[1] ?? "")
      .split("\n")
      .map((l) => /^ {2}([a-z-]+)/.exec(l)?.[1])
      .filter((n): n is string => Boolean(n) && n !== "help");
    expect(names).toContain("search");
    const pages = [["--help"], ...names.map((n) => [n, "--help"])];
    pages.push(["data", "build", "--help"], ["data", "import", "mcd", "--help"]);
    for (const args of pages) {
      const r = await runInProcess(args);
      expect(r.exitCode, args.join(" ")).toBe(0);
      for (const line of r.stdout.split("\n"))
        if (!/^\s*\$ /.test(line))
          expect(line.length, `${args.join(" ")}: ${line}`).toBeLessThanOrEqual(80);
    }
  });
});
