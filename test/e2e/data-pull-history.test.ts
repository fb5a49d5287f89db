// The catalogue's history across pulls (cli.md "The catalogue keeps its history"), on real CMS
// bytes: the second week served is test/fixtures/mcd-excerpt (rows of the real weekly export of
// ~2026-08-10, byte for byte, with the hand-written lcd.csv/article.csv/article_x_hcpc_code.csv
// its README names). Only one real week was found in the public repositories the search tools
// index, so the FIRST week is written here from the second one by the edits `weekOne` lists
// (every value they change is ours). The per-document changes the pull reports are checked
// against a diff of the two weeks' raw CSVs computed here, with csv-parse and without the
// importer: precision and recall 1.0.
import { isUtf8 } from "node:buffer";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import iconv from "iconv-lite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, runCoverage } from "../helpers/cli.js";
import { startCms, zipOf, type CmsServer } from "../helpers/cms-server.js";
import { folderState } from "../helpers/folder-state.js";
import { SQLITE } from "../helpers/snapshot.js";

const EXCERPT = path.join(ROOT, "test", "fixtures", "mcd-excerpt");
const LOOKUPS = [
  "contractor.csv",
  "contractor_jurisdiction.csv",
  "contractor_subtype_lookup.csv",
  "contractor_type_lookup.csv",
  "state_lookup.csv",
];
const LCD_FILES = [
  "lcd.csv",
  "lcd_x_contractor.csv",
  "lcd_x_hcpc_code.csv",
  "lcd_x_hcpc_code_group.csv",
  // CMS's records of revisions (real rows; lcd_x_revision_history's are ours, see the README).
  "lcd_x_reason_change.csv",
  "reason_change_lookup.csv",
  "lcd_x_revision_history.csv",
  "lcd_future_retire.csv",
];
const ARTICLE_FILES = [
  "article.csv",
  "article_x_contractor.csv",
  "article_x_hcpc_code.csv",
  "article_x_hcpc_code_group.csv",
  "article_x_icd10_covered.csv",
  "article_x_icd10_covered_group.csv",
  "article_future_retire.csv",
];
type Table = Array<Record<string, string>>;
type Week = Map<string, { header: string[]; rows: Table; win1252: boolean }>;

/** A week as raw tables: each file decoded as CMS wrote it (UTF-8, else Windows-1252). */
function readExcerpt(): Week {
  const week: Week = new Map();
  for (const name of [...LOOKUPS, ...LCD_FILES, ...ARTICLE_FILES, "ncd_trkg.csv"]) {
    const bytes = readFileSync(path.join(EXCERPT, name));
    const win1252 = !isUtf8(bytes);
    const text = win1252 ? iconv.decode(bytes, "win1252") : bytes.toString("utf8");
    const all = parse(text, { relax_column_count: true }) as string[][];
    const header = all[0]!;
    const rows = all.slice(1).map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] ?? ""])));
    week.set(name, { header, rows, win1252 });
  }
  return week;
}

const lower = (r: Record<string, string>, k: string) =>
  r[k] ?? r[Object.keys(r).find((c) => c.toLowerCase() === k.toLowerCase()) ?? ""] ?? "";

/**
 * Week one, ours, from week two: L33718 one version earlier (v51, a year earlier, without its
 * last HCPCS row), A54095 not yet published, NCD 240.4 with the same words in other markup and
 * spacing, NCD 190.10 with an earlier wording under an earlier version number, an LCD L39998
 * (a copy of L33718's row and contractors) that week two no longer has, and every
 * `last_updated` a year earlier (so week one is the older export).
 */
function weekOne(two: Week): Week {
  const one: Week = new Map();
  const yearEarlier = (v: string) => v.replace(/^(\d{4})/, (y) => String(Number(y) - 1));
  for (const [name, t] of two) {
    let rows = t.rows.map((r) => ({ ...r }));
    const isLcd = name.startsWith("lcd");
    if (isLcd) {
      for (const r of rows)
        if (lower(r, "lcd_id") === "33718") {
          const key = Object.keys(r).find((k) => k.toLowerCase() === "lcd_version")!;
          r[key] = "51";
        }
      if (name === "lcd_x_hcpc_code.csv") rows = rows.slice(0, -1);
      if (name === "lcd.csv") {
        const r = rows.find((x) => lower(x, "lcd_id") === "33718")!;
        r.rev_eff_date = yearEarlier(r.rev_eff_date!);
      }
      if (name === "lcd.csv" || name === "lcd_x_contractor.csv")
        rows.push(
          ...rows
            .filter((x) => lower(x, "lcd_id") === "33718")
            .map((x) => ({ ...x, lcd_id: "39998" })),
        );
    }
    if (name.startsWith("article")) rows = rows.filter((r) => lower(r, "article_id") !== "54095");
    if (name === "ncd_trkg.csv")
      for (const r of rows) {
        if (r.NCD_id === "226") {
          // Emphasis and list kinds change the markdown, not the words.
          r.indctn_lmtn = `<div>${r
            .indctn_lmtn!.replace("<p>", "<p><strong>")
            .replace("</p>", "</strong></p>\n\n")
            .replaceAll("<ol", "<ul")
            .replaceAll("</ol>", "</ul>")}</div>`;
          r.itm_srvc_desc = `<span>${r.itm_srvc_desc!.replaceAll(" ", "  ")}</span>`;
        }
        if (r.NCD_id === "181") {
          r.NCD_vrsn_num = String(Number(r.NCD_vrsn_num) - 1);
          r.itm_srvc_desc = `<p>An earlier wording of this NCD.</p>${r.itm_srvc_desc!}`;
        }
      }
    for (const r of rows)
      for (const k of Object.keys(r)) if (/^last_upd/i.test(k) && r[k]) r[k] = yearEarlier(r[k]!);
    one.set(name, { ...t, rows });
  }
  return one;
}

function csvBytes(t: { header: string[]; rows: Table; win1252: boolean }): Buffer {
  const text = stringify(t.rows, { header: true, columns: t.header, record_delimiter: "\r\n" });
  return t.win1252 ? iconv.encode(text, "win1252") : Buffer.from(text, "utf8");
}

/** The three exports of a week, as CMS nests them (`<name>.zip` holding `<name>_csv.zip`). */
async function weekZips(week: Week, raw: boolean): Promise<Record<string, Buffer>> {
  const bytes = (name: string) =>
    raw ? readFileSync(path.join(EXCERPT, name)) : csvBytes(week.get(name)!);
  const nest = async (name: string, files: string[]) =>
    zipOf([[`${name}_csv.zip`, await zipOf(files.map((f) => [f, bytes(f)]))]]);
  return {
    "/exports/ncd.zip": await nest("ncd", ["ncd_trkg.csv"]),
    "/exports/current_lcd.zip": await nest("current_lcd", [...LCD_FILES, ...LOOKUPS]),
    "/exports/current_article.zip": await nest("current_article", [...ARTICLE_FILES, ...LOOKUPS]),
  };
}

// --- the independent diff of two weeks' raw tables ---------------------------------------------

const plain = (html: string | undefined) =>
  (html ?? "")
    .replace(/<[^>]*>/g, " ")
    .replace(/&nbsp;/g, " ")
    .replace(/\s+/g, " ")
    .trim();

interface RawDoc {
  key: string;
  version: string;
  text: string;
  codes: Set<string>;
}

/** Each document of a week: its version, its words, and its HCPCS codes. */
function documentsOf(week: Week): Map<string, RawDoc> {
  const docs = new Map<string, RawDoc>();
  const codes = (
    file: string,
    idCol: string,
    id: string,
    version: string,
    verCol: string,
    codeCol = "hcpc_code_id",
  ) =>
    new Set(
      week
        .get(file)!
        .rows.filter((r) => lower(r, idCol) === id && lower(r, verCol) === version)
        .map((r) => lower(r, codeCol)),
    );
  for (const r of week.get("lcd.csv")!.rows)
    docs.set(`cms-lcd/L${r.lcd_id}`, {
      key: `cms-lcd/L${r.lcd_id}`,
      version: r.lcd_version!,
      text: [r.title, r.indication, r.coding_guidelines, r.doc_reqs].map(plain).join("|"),
      codes: codes("lcd_x_hcpc_code.csv", "lcd_id", r.lcd_id!, r.lcd_version!, "lcd_version"),
    });
  for (const r of week.get("article.csv")!.rows)
    docs.set(`cms-article/A${r.article_id}`, {
      key: `cms-article/A${r.article_id}`,
      version: r.article_version!,
      text: [r.title, r.description].map(plain).join("|"),
      codes: new Set([
        ...codes(
          "article_x_hcpc_code.csv",
          "article_id",
          r.article_id!,
          r.article_version!,
          "article_version",
        ),
        // ICD-10-CM codes as the export writes them; the import keeps them with their dots.
        ...codes(
          "article_x_icd10_covered.csv",
          "article_id",
          r.article_id!,
          r.article_version!,
          "article_version",
          "icd10_code_id",
        ),
      ]),
    });
  for (const r of week.get("ncd_trkg.csv")!.rows)
    docs.set(`cms-ncd/${r.NCD_mnl_sect}`, {
      key: `cms-ncd/${r.NCD_mnl_sect}`,
      version: r.NCD_vrsn_num!,
      text: [r.NCD_mnl_sect_title, r.itm_srvc_desc, r.indctn_lmtn].map(plain).join("|"),
      codes: new Set(),
    });
  return docs;
}

/** "id change +codes -codes" per changed document, from the raw tables alone. */
function rawDiff(one: Week, two: Week): string[] {
  const before = documentsOf(one);
  const after = documentsOf(two);
  const line = (id: string, change: string, gained: string[], lost: string[]) =>
    `${id} ${change} +${gained.sort().join(",")} -${lost.sort().join(",")}`;
  const out: string[] = [];
  for (const [id, b] of after) {
    const a = before.get(id);
    if (!a) out.push(line(id, "new", [...b.codes], []));
    else if (a.version !== b.version || a.text !== b.text || a.codes.size !== b.codes.size) {
      const gained = [...b.codes].filter((c) => !a.codes.has(c));
      const lost = [...a.codes].filter((c) => !b.codes.has(c));
      const change = a.text === b.text && (gained.length || lost.length) ? "codes" : "revised";
      if (a.text !== b.text || gained.length || lost.length)
        out.push(line(id, change, gained, lost));
    }
  }
  for (const id of before.keys()) if (!after.has(id)) out.push(line(id, "retired", [], []));
  return out.sort();
}

/** CMS's reasons for an LCD version, read from the raw reason tables (`Other: words`). */
function rawReasons(week: Week, lcdId: string, version: string): string {
  const lookup = new Map(
    week
      .get("reason_change_lookup.csv")!
      .rows.map((r) => [`${r.reason_change_id}|${r.reason_change_version}`, r.description!]),
  );
  return week
    .get("lcd_x_reason_change.csv")!
    .rows.filter((r) => r.lcd_id === lcdId && r.lcd_version === version)
    .map((r) => {
      const label = lookup.get(`${r.reason_change_id}|${r.reason_change_version}`)!;
      return r.reason_change_other ? `${label}: ${r.reason_change_other}` : label;
    })
    .join("; ");
}

interface Change {
  reason: string | null;
  id: string;
  change: string;
  old_version: string | null;
  new_version: string | null;
  codes_gained: Array<{ code: string }>;
  codes_lost: Array<{ code: string }>;
}
const asLines = (changes: Change[]) =>
  changes
    .map(
      (c) =>
        `${c.id} ${c.change} +${c.codes_gained
          .map((l) => l.code)
          .sort()
          .join(",")} -${c.codes_lost
          .map((l) => l.code)
          .sort()
          .join(",")}`,
    )
    .sort();

// --- the pulls ---------------------------------------------------------------------------------

const work = mkdtempSync(path.join(os.tmpdir(), "coverage-history-"));
const env = () => ({
  XDG_DATA_HOME: path.join(work, "data-home"),
  COVERAGE_RETRY_BASE_MS: "5",
  NO_COLOR: "1",
});
let cms: CmsServer;
let two: Week;
let one: Week;
const pull = (...extra: string[]) =>
  runCoverage(
    ["data", "pull", "medicare", "--no-codes", "--source", `${cms.url}/exports/`, ...extra],
    { env: env() },
  );
const cli = (args: string[]) => runCoverage(args, { env: env(), cwd: work });
/** Every version of the snapshot, retired ones too: what "changes nothing" compares. */
const everything = () =>
  cli(["--data", "medicare", "search", "--retired", "--json", "--limit", "100"]);
const serve = async (zips: Record<string, Buffer>) => {
  for (const [file, body] of Object.entries(zips)) cms.put(file, body);
};

describe.skipIf(!SQLITE)("the catalogue's history across pulls of real weeks", () => {
  let changes: Change[];
  let changesJson: string;
  let firstAnswer: string;

  beforeAll(async () => {
    two = readExcerpt();
    one = weekOne(two);
    cms = await startCms(await weekZips(one, false));
    const first = await pull();
    expect(first.exitCode, first.stderr).toBe(0);
    await serve(await weekZips(two, true));
    const second = await pull("--json");
    expect(second.exitCode, second.stderr).toBe(0);
    changesJson = second.stdout;
    changes = (JSON.parse(second.stdout) as { changes: Change[] }).changes;
    firstAnswer = (await everything()).stdout;
  }, 240_000);

  afterAll(async () => {
    await cms?.close();
  });

  it("reports, document by document, exactly the raw tables' diff (precision and recall 1.0)", () => {
    const expected = rawDiff(one, two);
    expect(expected.length).toBe(4);
    expect(asLines(changes)).toEqual(expected);
  });

  it("carries CMS's reason for the change, as the raw reason tables give it", () => {
    const c = changes.find((x) => x.id === "cms-lcd/L33718")!;
    expect(c.reason).toBe(rawReasons(two, "33718", "52"));
    expect(c.reason).toContain("CMS Final Rule CMS-1780-F");
  });

  it("takes markup-only NCD changes for no revision", () => {
    expect(changes.find((c) => c.id === "cms-ncd/240.4")).toBeUndefined();
    expect(rawDiff(one, two).some((l) => l.startsWith("cms-ncd/240.4 "))).toBe(false);
  });

  it("keeps both versions of a revised document, and diff shows the code links gained", async () => {
    const v = await cli(["--data", "medicare", "versions", "cms-lcd/L33718", "--json"]);
    expect(v.exitCode, v.stderr).toBe(0);
    const ids =
      (JSON.parse(v.stdout) as { versions?: Array<{ policy_id: string }> }).versions?.map(
        (x) => x.policy_id,
      ) ?? (JSON.parse(v.stdout) as Array<{ policy_id: string }>).map((x) => x.policy_id);
    const c = changes.find((x) => x.id === "cms-lcd/L33718")!;
    expect(ids).toEqual([c.old_version, c.new_version]);
    // Each version with CMS's revision date (the highest rev_hist_num of its version) and reason.
    const rows = (
      JSON.parse(v.stdout) as { versions: Array<{ cms_revision?: Record<string, string> }> }
    ).versions;
    const history = two
      .get("lcd_x_revision_history.csv")!
      .rows.filter((r) => r.lcd_id === "33718" && r.lcd_version === "52")
      .sort((a, b) => Number(b.rev_hist_num) - Number(a.rev_hist_num))[0]!;
    const [mm, dd, yyyy] = history.rev_hist_date!.split("/");
    expect(rows[1]!.cms_revision).toMatchObject({
      version: "52",
      revision_date: `${yyyy}-${mm}-${dd}`,
      reason: rawReasons(two, "33718", "52"),
    });
    expect(rows[0]!.cms_revision).toMatchObject({
      version: "51",
      reason: rawReasons(one, "33718", "51"),
    });
    const table = await cli(["--data", "medicare", "versions", "cms-lcd/L33718"]);
    expect(table.stdout).toContain("CMS REVISION");
    const d = await cli(["--data", "medicare", "diff", "cms-lcd/L33718", "--json"]);
    expect(d.exitCode, d.stderr).toBe(0);
    const lastRow = two.get("lcd_x_hcpc_code.csv")!.rows.at(-1)!;
    expect(d.stdout).toContain(lastRow.hcpc_code_id);
    expect(JSON.parse(d.stdout).cms_revision.new.reason).toBe(rawReasons(two, "33718", "52"));
  });

  it("lists the revised version in `updates --changes`, typed and with CMS's reason", async () => {
    const c = changes.find((x) => x.id === "cms-lcd/L33718")!;
    const from = c.new_version!.split("/").at(-1)!;
    // --today pins the engine's day to the new version's start (the snapshot's own is later).
    const r = await cli([
      "--data",
      "medicare",
      "--today",
      from,
      "updates",
      "--days",
      "1",
      "--changes",
      "--json",
      "--all",
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    const items = (JSON.parse(r.stdout) as { data: Array<Record<string, unknown>> }).data;
    const item = items.find((u) => u.policy_id === c.new_version)!;
    expect(item).toMatchObject({
      change_type: "updated",
      predecessor_id: c.old_version,
      cms_reason: rawReasons(two, "33718", "52"),
    });
    expect(item.changes).toContain("codes changed");
  });

  it("keeps a document gone from the export, retired on the export's date", async () => {
    const p = await cli(["--data", "medicare", "policy", "cms-lcd/L39998", "--json"]);
    expect(p.exitCode, p.stderr).toBe(0);
    const info = await cli(["data", "info", "medicare", "--json"]);
    const asOf = (JSON.parse(info.stdout) as { as_of: string }).as_of;
    expect((JSON.parse(p.stdout) as { effective_to_date: string }).effective_to_date).toBe(asOf);
  });

  it("gives the same changes later with `data changes`, by --since or --days", async () => {
    const all = await cli(["data", "changes", "--json"]);
    expect(all.exitCode, all.stderr).toBe(0);
    const answer = JSON.parse(all.stdout) as { as_of: string; changes: Change[] };
    expect(asLines(answer.changes)).toEqual(asLines(changes));
    const recent = await cli(["data", "changes", "--days", "1", "--json"]);
    expect(asLines((JSON.parse(recent.stdout) as { changes: Change[] }).changes)).toEqual(
      asLines(changes),
    );
    const later = await cli(["data", "changes", "--since", "2999-01-01", "--json"]);
    expect((JSON.parse(later.stdout) as { changes: Change[] }).changes).toEqual([]);
    const csv = await cli(["data", "changes", "--format", "csv"]);
    expect(csv.stdout).toMatch(/^as_of,id,policy_number,title,change,old_version,new_version,/);
    expect(csv.stdout).toMatch(
      /,codes,cms-lcd\/L33718\/[^,]+,cms-lcd\/L33718\/[^,]+,51,52,HCPCS:\S+ COVERS,/,
    );
    const table = await cli(["data", "changes"]);
    expect(table.stdout).toContain("retired");
    expect(table.stdout).toContain("L39998");
  });

  it("compares with the fingerprints a pull keeps, and from the rows of a snapshot without them", async () => {
    const { DatabaseSync } = await import("node:sqlite");
    const file = (home: string) => path.join(home, "coverage", "medicare.db");
    // The pulls' snapshot keeps a fingerprint of each of its versions.
    const db = new DatabaseSync(file(env().XDG_DATA_HOME), { readOnly: true });
    const count = (sql: string) => Number(db.prepare(sql).get()!.n);
    expect(count("SELECT count(*) AS n FROM version_fingerprint")).toBe(
      count("SELECT count(*) AS n FROM version"),
    );
    db.close();
    // A first snapshot without them (`data import mcd`, or an earlier release): the same changes.
    const home = path.join(work, "without-fingerprints");
    const pullInto = (...extra: string[]) =>
      runCoverage(
        ["data", "pull", "medicare", "--no-codes", "--source", `${cms.url}/exports/`, ...extra],
        { env: { ...env(), XDG_DATA_HOME: home } },
      );
    await serve(await weekZips(one, false));
    expect((await pullInto()).exitCode).toBe(0);
    const old = new DatabaseSync(file(home));
    old.exec("DROP TABLE version_fingerprint");
    old.close();
    await serve(await weekZips(two, true));
    const r = await pullInto("--json");
    expect(r.exitCode, r.stderr).toBe(0);
    expect(asLines((JSON.parse(r.stdout) as { changes: Change[] }).changes)).toEqual(
      asLines(changes),
    );
  });

  it("shows the retirements CMS has announced: versions, policy, data changes, the JSON", async () => {
    // The raw future-retire tables, read here: every document and day, as CMS wrote them.
    const raw = [
      ...two.get("lcd_future_retire.csv")!.rows.map((r) => [`cms-lcd/L${r.lcd_id}`, r.retire_dt]),
      ...two
        .get("article_future_retire.csv")!
        .rows.map((r) => [`cms-article/A${r.article_id}`, r.retire_dt]),
    ].map(([id, day]) => `${id} ${day!.slice(0, 10)}`);
    expect(raw.length).toBeGreaterThan(100);
    const day = raw.find((l) => l.startsWith("cms-article/A60249 "))!.split(" ")[1]!;
    const all = await cli(["data", "changes", "--json"]);
    const listed = (
      JSON.parse(all.stdout) as {
        future_retirements: Array<{ id: string; retire_on: string; title: string | null }>;
      }
    ).future_retirements;
    expect(listed.map((r) => `${r.id} ${r.retire_on}`).sort()).toEqual([...raw].sort());
    const title = two.get("article.csv")!.rows.find((r) => r.article_id === "60249")!.title;
    expect(listed.find((r) => r.id === "cms-article/A60249")!.title).toBe(title);
    expect(JSON.parse(changesJson).future_retirements).toEqual(listed);
    const table = await cli(["data", "changes"]);
    expect(table.stdout).toContain(`A60249  ${title}: retires ${day} (CMS future retire)`);
    const v = await cli(["--data", "medicare", "versions", "cms-article/A60249", "--json"]);
    const rows = (JSON.parse(v.stdout) as { versions: Array<{ cms_retires_on?: string }> })
      .versions;
    expect(rows.at(-1)!.cms_retires_on).toBe(day);
    const vt = await cli(["--data", "medicare", "versions", "cms-article/A60249"]);
    expect(vt.stdout).toContain(`retires ${day} (CMS future retire)`);
    const p = await cli(["--data", "medicare", "policy", "cms-article/A60249"]);
    expect(p.stdout).toMatch(new RegExp(`Retirement +retires ${day} \\(CMS future retire\\)`));
    // A document CMS announces nothing for shows nothing.
    const none = await cli(["--data", "medicare", "versions", "cms-lcd/L33718", "--json"]);
    expect(none.stdout).not.toContain("cms_retires_on");
  });

  it("shows an NCD's newest revision-history entry (ncd_trkg.rev_hstry) as its CMS revision", async () => {
    // Read here from the raw HTML: the first paragraph that starts `MM/YYYY - `.
    const row = two.get("ncd_trkg.csv")!.rows.find((r) => r.NCD_mnl_sect === "240.4")!;
    const first = row
      .rev_hstry!.split(/<\/p>/i)
      .map((p) => p.replace(/<[^>]*>/g, "").trim())
      .find((p) => /^\d{1,2}\/\d{4} - /.test(p))!;
    const [, mm, yyyy] = /^(\d{1,2})\/(\d{4})/.exec(first)!;
    const v = await cli(["--data", "medicare", "versions", "cms-ncd/240.4", "--json"]);
    expect(v.exitCode, v.stderr).toBe(0);
    const latest = (
      JSON.parse(v.stdout) as {
        versions: Array<{
          cms_revision?: { version: string; revision_date: string; explanation: string };
        }>;
      }
    ).versions.at(-1)!;
    expect(latest.cms_revision).toMatchObject({
      version: row.NCD_vrsn_num,
      revision_date: `${yyyy}-${mm!.padStart(2, "0")}`,
    });
    const words = first.replace(/^\S+ - /, "").replace(/\s+/g, " ");
    expect(words.startsWith(latest.cms_revision!.explanation.replace(/…$/, ""))).toBe(true);
    expect(latest.cms_revision!.explanation.length).toBeGreaterThan(40);
    // A row whose history holds no dated entry (NCD 160.9's is a link only) gives none.
    const link = await cli(["--data", "medicare", "versions", "cms-ncd/160.9", "--json"]);
    expect(link.exitCode, link.stderr).toBe(0);
    expect(link.stdout).toContain('"policy_id": "cms-ncd/160.9/');
    expect(link.stdout).not.toContain("cms_revision");
  });

  it("changes nothing when the same week is pulled twice", async () => {
    const again = await pull("--force", "--json");
    expect(again.exitCode, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as { changes: Change[] }).changes).toEqual([]);
    expect((await everything()).stdout).toBe(firstAnswer);
  });

  it("refuses an export older than the snapshot's, naming both dates, and changes nothing", async () => {
    const before = folderState(path.join(work, "data-home", "coverage"));
    await serve(await weekZips(one, false));
    const r = await pull();
    expect(r.exitCode).toBe(2);
    // The snapshot, its text files and history, sources and manifest: as they were.
    expect(folderState(path.join(work, "data-home", "coverage"))).toEqual(before);
    expect(r.stderr).toMatch(
      /the export is of 2025-\d\d-\d\d, older than the snapshot's 2026-\d\d-\d\d/,
    );
    expect((await everything()).stdout).toBe(firstAnswer);
  });

  it("keeps both when CMS gives other words under the same version number, and says so", async () => {
    // Week three (ours): week two with NCD 240.4's first words changed, its version unchanged.
    const three: Week = new Map(two);
    const ncd = two.get("ncd_trkg.csv")!;
    three.set("ncd_trkg.csv", {
      ...ncd,
      rows: ncd.rows.map((r) =>
        r.NCD_id === "226" ? { ...r, itm_srvc_desc: `<p>Reworded.</p>${r.itm_srvc_desc!}` } : r,
      ),
    });
    await serve(await weekZips(three, false));
    const r = await pull("--json");
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /cms-ncd\/240\.4: CMS gave different content under the same version \d+/,
    );
    const [c] = (JSON.parse(r.stdout) as { changes: Array<Change & { note: string }> }).changes;
    expect(c).toMatchObject({ id: "cms-ncd/240.4", change: "revised" });
    expect(c!.new_version).toBe(`${c!.old_version}~2`);
    expect(c!.note).toContain("both kept");
    const v = await cli(["--data", "medicare", "versions", "cms-ncd/240.4", "--json"]);
    const ids = (JSON.parse(v.stdout) as { versions: Array<{ policy_id: string }> }).versions.map(
      (x) => x.policy_id,
    );
    expect(ids).toEqual([c!.old_version, c!.new_version]);
  });

  it("--history reads all_lcd.zip and all_article.zip: a retired row gives CMS's own end date", async () => {
    // The all_ exports (ours): week two's tables, plus L39998 as CMS would list it once retired
    // (week one's rows, status R, date_retired; its dates ours).
    const all: Week = new Map(two);
    const retiredOn = "2026-01-31";
    for (const name of ["lcd.csv", "lcd_x_contractor.csv"]) {
      const t = two.get(name)!;
      const extra = one
        .get(name)!
        .rows.filter((r) => lower(r, "lcd_id") === "39998")
        .map((r) =>
          name === "lcd.csv" ? { ...r, status: "R", date_retired: `${retiredOn} 00:00:00` } : r,
        );
      all.set(name, { ...t, rows: [...t.rows, ...extra] });
    }
    const zips = await weekZips(all, false);
    const nest = async (name: string, files: string[]) =>
      zipOf([[`${name}_csv.zip`, await zipOf(files.map((f) => [f, csvBytes(all.get(f)!)]))]]);
    cms.put("/exports/all_lcd.zip", await nest("all_lcd", [...LCD_FILES, ...LOOKUPS]));
    cms.put("/exports/all_article.zip", await nest("all_article", [...ARTICLE_FILES, ...LOOKUPS]));
    cms.put("/exports/ncd.zip", zips["/exports/ncd.zip"]!);
    const r = await pull("--history", "--json");
    expect(r.exitCode, r.stderr).toBe(0);
    // The NCD row of week two is back: 240.4 gets its earlier words again (a revision).
    const changes = (JSON.parse(r.stdout) as { changes: Change[] }).changes;
    expect(changes.map((c) => c.id)).toEqual(["cms-ncd/240.4"]);
    const p = await cli(["--data", "medicare", "policy", "cms-lcd/L39998", "--json"]);
    expect((JSON.parse(p.stdout) as { effective_to_date: string }).effective_to_date).toBe(
      retiredOn,
    );
  });
});
