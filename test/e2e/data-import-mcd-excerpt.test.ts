// The MCD import on an excerpt of a real CMS export (test/fixtures/mcd-excerpt: its README says
// which repository, commit and file each row comes from, and which rows were written by hand).
// Every expected value is read from the raw CSVs here, with csv-parse and iconv-lite directly and
// mcd-import.md's tables, never from the importer's own code.
import { isUtf8 } from "node:buffer";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import iconv from "iconv-lite";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { runInProcess, type CliRun } from "../helpers/run-cli.js";

const EXCERPT = path.join(ROOT, "test", "fixtures", "mcd-excerpt");
const out = path.join(mkdtempSync(path.join(os.tmpdir(), "coverage-excerpt-")), "medicare.json");
let imported: CliRun;

/**
 * A raw table's text. CMS has published both UTF-8 (the real rows here) and Windows-1252 (the
 * hand-written ones): a whole file that is valid UTF-8 is UTF-8.
 */
function rawText(name: string): string {
  const bytes = readFileSync(path.join(EXCERPT, name));
  return isUtf8(bytes) ? bytes.toString("utf8") : iconv.decode(bytes, "win1252");
}

/** A raw table of the excerpt, decoded as written, keyed by lower-case column. */
function table(name: string): Array<Record<string, string>> {
  const text = rawText(name);
  const rows = parse(text, { columns: true }) as Array<Record<string, string>>;
  return rows.map((r) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k.toLowerCase(), v])),
  );
}
const day = (value: string) => value.slice(0, 10);

// mcd-import.md, "What the real export showed": subtype first, else type.
const BY_SUBTYPE: Record<string, string[]> = {
  "MAC A": ["medicare_part_a"],
  "HHH MAC": ["medicare_part_a"],
  "MAC B": ["medicare_part_b"],
  "DME MAC": ["medicare_part_b"],
};
const BY_TYPE: Record<string, string[]> = {
  "A and B MAC": ["medicare_part_a", "medicare_part_b"],
  "A and B and HHH MAC": ["medicare_part_a", "medicare_part_b"],
  "DME MAC": ["medicare_part_b"],
};

/** "STATE:lob" for each scope a local document should have, from the raw lookups. */
function expectedScopes(docFile: string, idColumn: string, id: string, from: string): string[] {
  const subtypes = new Map(
    table("contractor_subtype_lookup.csv").map((r) => [r.contractor_subtype_id, r.description!]),
  );
  const types = new Map(
    table("contractor_type_lookup.csv").map((r) => [r.contractor_type_id, r.description!]),
  );
  const states = new Map(table("state_lookup.csv").map((r) => [r.state_id, r.state_abbrev!]));
  const key = (r: Record<string, string>) =>
    `${r.contractor_id}|${r.contractor_type_id}|${r.contractor_version}`;
  const contractors = new Map(table("contractor.csv").map((r) => [key(r), r]));
  const out = new Set<string>();
  for (const link of table(docFile).filter((r) => r[idColumn] === id)) {
    const c = contractors.get(key(link))!;
    const lobs = c.contractor_subtype_id
      ? BY_SUBTYPE[subtypes.get(c.contractor_subtype_id)!]!
      : BY_TYPE[types.get(c.contractor_type_id!)!]!;
    for (const j of table("contractor_jurisdiction.csv").filter((r) => key(r) === key(link)))
      if (!j.term_date || day(j.term_date) > from)
        for (const lob of lobs) out.add(`${states.get(j.state_id)}:${lob}`);
  }
  return [...out].sort();
}

const cli = (args: string[]) => runInProcess(["--local", "--data", out, ...args]);

interface Detail {
  policy_id: string;
  effective_from_date: string;
  effective_to_date: string | null;
  summary: string | null;
  criteria_text: string | null;
  applicability: Array<{ lobs: string[]; state?: string | null }>;
  code_groups: Array<{
    code_system: string;
    relationship: string;
    category: string | null;
    codes: string[];
  }>;
}
async function policy(id: string): Promise<Detail> {
  const r = await cli(["policy", id, "--json"]);
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Detail;
}
const scopes = (d: Detail) =>
  d.applicability.flatMap((a) => a.lobs.map((l) => `${a.state ?? "US"}:${l}`)).sort();
/** Each code of a policy with its relationship. */
const relationships = (d: Detail) =>
  Object.fromEntries(d.code_groups.flatMap((g) => g.codes.map((c) => [c, g.relationship])));
async function searchIds(args: string[]): Promise<string[]> {
  const r = await cli(["search", "--json", "--limit", "100", ...args]);
  expect(r.exitCode, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { data: Array<{ policy_id: string }> }).data
    .map((p) => p.policy_id)
    .sort();
}

beforeAll(async () => {
  imported = await runInProcess(["data", "import", "mcd", EXCERPT, "-o", out]);
}, 120_000);

describe("the MCD import on the excerpt in the real export's format", () => {
  it("imports every document of the excerpt", () => {
    expect(imported.exitCode, imported.stderr).toBe(0);
    expect(imported.stderr).toMatch(
      new RegExp(
        `imported ${table("lcd.csv").length} LCDs, ${table("article.csv").length} articles, ${table("ncd_trkg.csv").length} NCDs`,
      ),
    );
  });

  it("holds no CPT long description: only HCPCS Level II rows carry one", () => {
    for (const file of ["article_x_hcpc_code.csv", "lcd_x_hcpc_code.csv"])
      for (const row of table(file))
        if (!/^[A-V]\d{4}$/.test(row.hcpc_code_id!))
          expect(row.long_description, row.hcpc_code_id).toBe("");
  });

  it.each([
    ["article_x_contractor.csv", "article_id", "56566", "cms-article/A56566"],
    ["article_x_contractor.csv", "article_id", "54095", "cms-article/A54095"],
    ["article_x_contractor.csv", "article_id", "57611", "cms-article/A57611"],
    ["lcd_x_contractor.csv", "lcd_id", "33718", "cms-lcd/L33718"],
  ])(
    "%s %s %s: Part A or B by each contractor's subtype, in its own states",
    async (file, column, id, key) => {
      const d = await policy(key);
      expect(scopes(d)).toEqual(expectedScopes(file, column, id, d.effective_from_date));
    },
  );

  it("each contractor counts for its subtype's part only: Part A in CA and NY, Part B in NF, SF, DN, QN, UN", async () => {
    const contractors = table("contractor.csv");
    const subtype = new Map(
      table("contractor_subtype_lookup.csv").map((r) => [r.contractor_subtype_id, r.description]),
    );
    const subtypeOf = (number: string) =>
      subtype.get(contractors.find((c) => c.contractor_number === number)!.contractor_subtype_id!);
    // Noridian JE: 01111 is California's Part A, 01112 and 01182 its Part B (NF and SF).
    expect([subtypeOf("01111"), subtypeOf("01112"), subtypeOf("01182")]).toEqual([
      "MAC A",
      "MAC B",
      "MAC B",
    ]);
    const a57611 = scopes(await policy("cms-article/A57611"));
    expect(a57611).toEqual(
      expect.arrayContaining(["CA:medicare_part_a", "NF:medicare_part_b", "SF:medicare_part_b"]),
    );
    expect(a57611).not.toContain("CA:medicare_part_b");
    expect(a57611).not.toContain("NF:medicare_part_a");
    // Wellpoint J6/JK: 13201 is New York's Part A, 13202 / 13282 / 13292 its Part B.
    expect([subtypeOf("13201"), subtypeOf("13202")]).toEqual(["MAC A", "MAC B"]);
    const a56566 = scopes(await policy("cms-article/A56566"));
    expect(a56566).toEqual(
      expect.arrayContaining([
        "NY:medicare_part_a",
        "DN:medicare_part_b",
        "QN:medicare_part_b",
        "UN:medicare_part_b",
      ]),
    );
    expect(a56566).not.toContain("NY:medicare_part_b");
  });

  it.each([
    ["CA", "cms-article/A57611"],
    ["NY", "cms-article/A56566"],
  ])(
    "--state %s finds its Part B under the sub-state jurisdictions; --exact-state does not",
    async (state, key) => {
      const id = (await policy(key)).policy_id;
      expect(
        await searchIds(["--state", state, "--lob", "medicare_part_b", "--payer", "CMS"]),
      ).toContain(id);
      expect(
        await searchIds([
          "--state",
          state,
          "--exact-state",
          "--lob",
          "medicare_part_b",
          "--payer",
          "CMS",
        ]),
      ).not.toContain(id);
    },
  );

  it("a UTF-8 table (the real export's) is read as written", async () => {
    const raw = table("ncd_trkg.csv").find((r) => r.ncd_mnl_sect === "160.9")!.indctn_lmtn!;
    const phrase = /160\.9 \u2013 Electroencephalographic/.exec(raw)?.[0];
    expect(phrase).toBeDefined();
    expect((await policy("cms-ncd/160.9")).criteria_text).toContain(phrase);
  });

  const retired = table("ncd_trkg.csv").filter(
    (r) => r.ncd_trmntn_dt && day(r.ncd_trmntn_dt) < day(r.ncd_efctv_dt!),
  );
  it("the excerpt holds retired NCD rows (30.4 among them)", () => {
    expect(retired.map((r) => r.ncd_mnl_sect)).toContain("30.4");
  });

  it.each(retired.map((r) => [r.ncd_mnl_sect!, r] as const))(
    "retired NCD %s is a retired version: its own id, in effect on no day, the summary says when it ended",
    async (section, row) => {
      const id = `cms-ncd/${section}/${day(row.ncd_efctv_dt!)}`;
      const d = await policy(`cms-ncd/${section}`);
      expect(d.policy_id).toBe(id);
      expect(d.effective_to_date).toBe(d.effective_from_date);
      expect(d.summary?.startsWith(`Retired: coverage ended ${day(row.ncd_trmntn_dt!)}.`)).toBe(
        true,
      );
      expect(await searchIds(["--retired"])).toContain(id);
      expect(await searchIds(["--retired", "--state", "CA"])).toContain(id);
      for (const window of [
        ["--effective-on", day(row.ncd_efctv_dt!)],
        ["--effective-on", day(row.ncd_trmntn_dt!)],
        ["--effective-start", "2020-01-01", "--effective-end", "2026-12-31"],
        ["--effective-start", "2020-01-01", "--effective-end", "2026-12-31", "--state", "CA"],
      ])
        expect(await searchIds(window), window.join(" ")).not.toContain(id);
    },
  );

  const withTables = table("ncd_trkg.csv").filter((r) => /<table/i.test(r.indctn_lmtn!));
  it("the excerpt holds NCDs with HTML tables (190.10 with a spanning header, 240.1 with spanning rows)", () => {
    expect(withTables.map((r) => r.ncd_mnl_sect).sort()).toEqual(["190.10", "240.1"]);
  });

  /** A raw HTML table's rows as cell texts on the grid: spanned places hold "". */
  function grid(html: string): string[][] {
    const text = (cell: string) =>
      cell
        .replace(/<[^>]+>/g, "")
        .replace(/&le;/g, "\u2264")
        .replace(/&ge;/g, "\u2265")
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&amp;/g, "&")
        .replace(/\s+/g, " ")
        .trim();
    const below: number[] = [];
    return [...html.matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/g)].map((m) => {
      const row: string[] = [];
      for (const c of m[1]!.matchAll(/<t[dh]\b([^>]*)>([\s\S]*?)<\/t[dh]>/g)) {
        while ((below[row.length] ?? 0) > 0) {
          below[row.length]!--;
          row.push("");
        }
        const across = Number(/colspan="(\d+)"/.exec(c[1]!)?.[1] ?? 1);
        const down = Number(/rowspan="(\d+)"/.exec(c[1]!)?.[1] ?? 1);
        for (let i = 0; i < across; i++) {
          below[row.length] = down - 1;
          row.push(i === 0 ? text(c[2]!) : "");
        }
      }
      while (below.slice(row.length).some((n) => n > 0)) {
        if ((below[row.length] ?? 0) > 0) below[row.length]!--;
        row.push("");
      }
      return row;
    });
  }

  it.each(withTables.map((r) => [r.ncd_mnl_sect!, r.indctn_lmtn!] as const))(
    "NCD %s's HTML table is a markdown table with each raw cell in its own column",
    async (section, html) => {
      const rows = grid(html.slice(html.search(/<table/i), html.search(/<\/table>/i)));
      const width = Math.max(...rows.map((r) => r.length));
      const lines = (await policy(`cms-ncd/${section}`)).criteria_text!.split("\n");
      const first = lines.findIndex((l) => l.startsWith("|"));
      const block = lines.slice(first, first + rows.length + 1);
      // The divider under the header spans every column, or no markdown reader sees a table.
      expect(block[1]).toBe(`|${" --- |".repeat(width)}`);
      const cells = (line: string) =>
        line
          .slice(1, -1)
          .split(/(?<!\\)\|/)
          .map((c) => c.trim());
      expect(cells(block[0]!)).toEqual([...rows[0]!, ...Array(width - rows[0]!.length).fill("")]);
      for (const [i, row] of rows.slice(1).entries())
        expect(cells(block[i + 2]!), row.join(" | ")).toEqual([
          ...row,
          ...Array(width - row.length).fill(""),
        ]);
    },
  );

  it("L33718: a modifier legend excludes nothing (E0601 covered in the CPAP LCD)", async () => {
    const codes = table("lcd_x_hcpc_code.csv").map((r) => r.hcpc_code_id!);
    const paragraph = table("lcd_x_hcpc_code_group.csv")[0]!.paragraph!;
    expect(paragraph).toContain("not reasonable and necessary");
    const rel = relationships(await policy("cms-lcd/L33718"));
    for (const code of codes) expect(rel[code], code).toBe("COVERS");
  });

  it("A56566: the codes named status N are not covered, the rest of the group is", async () => {
    const groups = table("article_x_hcpc_code_group.csv").filter((r) => r.article_id === "56566");
    const named = [...groups[0]!.paragraph!.matchAll(/code (\w{5}) is status N/g)].map((m) => m[1]);
    expect(named.sort()).toEqual(["97037", "G0295"]);
    const rel = relationships(await policy("cms-article/A56566"));
    for (const row of table("article_x_hcpc_code.csv").filter((r) => r.article_id === "56566"))
      expect(rel[row.hcpc_code_id!], row.hcpc_code_id).toBe(
        named.includes(row.hcpc_code_id!) ? "DOES_NOT_COVER" : "COVERS",
      );
  });

  it("A54095: group 7's 'following CPT codes are Non-Covered' excludes that group only", async () => {
    const paragraph = table("article_x_hcpc_code_group.csv").find(
      (r) => r.article_id === "54095" && r.hcpc_code_group === "7",
    )!.paragraph!;
    expect(paragraph).toContain("The following CPT codes are Non-Covered");
    const rows = table("article_x_hcpc_code.csv").filter((r) => r.article_id === "54095");
    expect(new Set(rows.map((r) => r.hcpc_code_group))).toEqual(new Set(["3", "7"]));
    const rel = relationships(await policy("cms-article/A54095"));
    for (const row of rows)
      expect(rel[row.hcpc_code_id!], row.hcpc_code_id).toBe(
        row.hcpc_code_group === "7" ? "DOES_NOT_COVER" : "COVERS",
      );
  });

  it("a <p>N/A</p> paragraph gives a null category", async () => {
    const na = table("article_x_hcpc_code_group.csv").find((r) => r.paragraph === "<p>N/A</p>")!;
    const codes = table("article_x_hcpc_code.csv")
      .filter((r) => r.article_id === na.article_id && r.hcpc_code_group === na.hcpc_code_group)
      .map((r) => r.hcpc_code_id);
    const d = await policy(`cms-article/A${na.article_id}`);
    for (const code of codes)
      expect(d.code_groups.find((g) => g.codes.includes(code!))?.category, code).toBeNull();
  });

  it("the summary counts the links each rule excluded", () => {
    // A56566: 2 named (rule 2); A54095 group 7: 95999 named, 2 by "the following" (rule 3);
    // A56737: 75571 named; A57604 ("Not payable by Medicare") and A60249 ("Non-coverage"): 2 each.
    expect(imported.stderr).toMatch(
      /4 HCPCS\/CPT links named in a not-covered sentence, 6 in a group declared not covered/,
    );
  });

  // mcd-import.md rule 5, on real paragraphs: each wording, with the codes of its group.
  const paragraphOf = (article: string, group: string) =>
    table("article_x_hcpc_code_group.csv").find(
      (r) => r.article_id === article && r.hcpc_code_group === group,
    )!.paragraph!;
  const codesOf = (article: string, group: string) =>
    table("article_x_hcpc_code.csv")
      .filter((r) => r.article_id === article && r.hcpc_code_group === group)
      .map((r) => r.hcpc_code_id!);
  it.each([
    ["56737", "1", /CPT code (\w{5}) is not a covered service/, "named"],
    ["57604", "2", /^\s*(?:<[^>]+>\s*)*Not payable by Medicare\s*(?:<[^>]+>\s*)*$/, "group"],
    ["60249", "3", /^\s*(?:<[^>]+>\s*)*Non-coverage\s*(?:<[^>]+>\s*)*$/, "group"],
    ["58710", "8", /Conditionally Non-covered[\s\S]*same DOS when/, "none"],
  ] as const)(
    "A%s group %s: the real wording %s excludes %s",
    async (article, group, wording, excludes) => {
      const paragraph = paragraphOf(article, group);
      const m = wording.exec(paragraph);
      expect(m, paragraph).not.toBeNull();
      const rel = relationships(await policy(`cms-article/A${article}`));
      const codes = codesOf(article, group);
      expect(codes.length).toBeGreaterThan(1);
      for (const code of codes)
        expect(rel[code], code).toBe(
          excludes === "group" || (excludes === "named" && code === m![1])
            ? "DOES_NOT_COVER"
            : "COVERS",
        );
    },
  );

  it("a combination limit keeps its condition in the category for the analyst", async () => {
    const d = await policy("cms-article/A58710");
    const g = d.code_groups.find((x) => x.codes.includes(codesOf("58710", "8")[0]!))!;
    expect(g.relationship).toBe("COVERS");
    expect(g.category).toMatch(
      /^Conditionally Non-covered CPT codes: The following CPT codes are NOT covered/,
    );
  });

  // Rule 6: the category quotes the sentence naming the code, not the paragraph's first words.
  it("A56566: G0295's category is the sentence that names it, not the list's opening", async () => {
    const paragraph = paragraphOf("56566", "1")
      .replace(/<[^>]+>/g, " ")
      .replace(/\s+/g, " ");
    const sentence = /HCPCS code G0295 is status N[^.]*\./.exec(paragraph)![0];
    expect(paragraph.trim().startsWith(sentence)).toBe(false);
    const d = await policy("cms-article/A56566");
    const g = d.code_groups.find((x) => x.codes.includes("G0295"))!;
    expect(g.category!.startsWith(sentence)).toBe(true);
  });

  it("check: a supported row quotes the sentence declaring the ICD-10 group, not the provider's-responsibility opening", async () => {
    const group = table("article_x_icd10_covered_group.csv")[0]!;
    const text = group
      .paragraph!.replace(/<[^>]+>/g, " ")
      .replace(/&rsquo;/g, "\u2019")
      .replace(/&nbsp;/g, " ")
      .replace(/\s+/g, " ")
      .replace(/ ([,.])/g, "$1")
      .trim();
    expect(text).toMatch(/^It is the provider\u2019s responsibility to select codes/);
    const declaration = /The following ICD-10-CM codes support medical necessity[^]*/.exec(
      text,
    )![0];
    const diagnosis = table("article_x_icd10_covered.csv").find(
      (r) => r.icd10_covered_group === group.icd10_covered_group,
    )!.icd10_code_id!;
    const procedure = table("article_x_hcpc_code.csv").find(
      (r) => r.article_id === group.article_id && declaration.includes(r.hcpc_code_id!),
    )!.hcpc_code_id!;
    const state = expectedScopes(
      "article_x_contractor.csv",
      "article_id",
      group.article_id!,
      "2000-01-01",
    )
      .find((s) => s.endsWith(":medicare_part_b"))!
      .split(":")[0]!;
    const r = await cli([
      "check",
      "--procedure",
      procedure,
      "--diagnosis",
      diagnosis,
      "--state",
      state,
      "--lob",
      "medicare_part_b",
      "--json",
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as {
      lines: Array<{ results: Array<{ verdict: string; policies: Array<{ category: string }> }> }>;
    };
    const row = out.lines[0]!.results.find((x) => x.verdict === "supported")!;
    expect(declaration.startsWith(row.policies[0]!.category)).toBe(true);
  });

  it("L33718: the covered codes' category skips the disclaimer", async () => {
    const paragraph = table("lcd_x_hcpc_code_group.csv")[0]!.paragraph!;
    expect(paragraph).toMatch(/^\s*(?:<[^>]+>\s*)*The appearance of a code in this section/);
    const d = await policy("cms-lcd/L33718");
    const g = d.code_groups.find((x) => x.codes.includes("E0601"))!;
    expect(g.category).not.toMatch(/appearance of a code/);
  });

  // NCDs retired by their title alone (mcd-import.md: all 40 of the 2026-02-15 export retired).
  const retiredByTitle = table("ncd_trkg.csv").filter(
    (r) => /(?:\s-\s*RETIRED|\(RETIRED\))\s*$/i.test(r.ncd_mnl_sect_title!) && !r.ncd_trmntn_dt,
  );
  it("the excerpt holds an NCD retired by its title alone (220.6.4)", () => {
    expect(retiredByTitle.map((r) => r.ncd_mnl_sect)).toContain("220.6.4");
  });
  it.each(retiredByTitle.map((r) => [r.ncd_mnl_sect!, r] as const))(
    "NCD %s, retired by its title, is a retired version in effect on no day",
    async (section, row) => {
      const id = `cms-ncd/${section}/${day(row.ncd_efctv_dt!)}`;
      const d = await policy(`cms-ncd/${section}`);
      expect(d.policy_id).toBe(id);
      expect(d.effective_to_date).toBe(d.effective_from_date);
      expect(d.summary?.startsWith("Retired:")).toBe(true);
      expect(await searchIds(["--retired"])).toContain(id);
      expect(await searchIds(["--no-retired"])).not.toContain(id);
      expect(await searchIds(["--effective-on", day(row.ncd_efctv_dt!)])).not.toContain(id);
    },
  );

  /** The items of an HTML list as the source renders them: [depth, marker, first words]. */
  function renderedItems(html: string): Array<[number, string, string]> {
    const out: Array<[number, string, string]> = [];
    const lists: Array<{ type: string; n: number }> = [];
    for (const m of html.matchAll(/<(\/?)(ol|ul|li)\b([^>]*)>([^<]*)/gi)) {
      const [, close, tag, attrs, text] = m as unknown as [string, string, string, string, string];
      if (tag.toLowerCase() === "li") {
        if (close || !lists.length) continue;
        const list = lists.at(-1)!;
        const marker =
          list.type === "a"
            ? String.fromCharCode(96 + list.n)
            : list.type === "ul"
              ? "-"
              : `${list.n}`;
        list.n++;
        out.push([
          lists.length,
          marker,
          text
            .replace(/&#8217;/g, "\u2019")
            .trim()
            .split(/\s+/)
            .slice(0, 4)
            .join(" "),
        ]);
      } else if (close) lists.pop();
      else
        lists.push({
          type: tag.toLowerCase() === "ul" ? "ul" : (/type="(\w)"/.exec(attrs)?.[1] ?? "1"),
          n: Number(/start="(\d+)"/.exec(attrs)?.[1] ?? 1),
        });
    }
    return out;
  }

  it.each(["240.4", "190.13"])(
    "NCD %s's lists are numbered as the source renders them (br between items, letters, start, nesting)",
    async (section) => {
      const html = table("ncd_trkg.csv").find((r) => r.ncd_mnl_sect === section)!.indctn_lmtn!;
      const items = renderedItems(html);
      expect(items.some(([, marker]) => marker === "a")).toBe(true);
      const text = (await policy(`cms-ncd/${section}`)).criteria_text!;
      let from = 0;
      for (const [depth, marker, words] of items) {
        if (!words) continue;
        const line = new RegExp(
          `^${" ".repeat(4 * (depth - 1))}${marker === "-" ? "-" : `${marker}\\.`}\\s+${words.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`,
          "m",
        );
        const at = text.slice(from).search(line);
        expect(at, `${marker} ${words}`).toBeGreaterThanOrEqual(0);
        from += at;
      }
    },
  );

  it("--state NF finds L33718, filed by the DME MACs under CA (entire state) and not NF", async () => {
    const states = new Set(
      expectedScopes("lcd_x_contractor.csv", "lcd_id", "33718", "2000-01-01").map(
        (s) => s.split(":")[0],
      ),
    );
    expect(states.has("CA")).toBe(true);
    expect(states.has("NF")).toBe(false);
    const id = (await policy("cms-lcd/L33718")).policy_id;
    expect(await searchIds(["--code", "HCPCS:E0601", "--state", "NF"])).toContain(id);
    expect(
      await searchIds(["--code", "HCPCS:E0601", "--state", "NF", "--exact-state"]),
    ).not.toContain(id);
  });

  it("Windows-1252 text and bare line feeds inside quoted HTML are read as written", async () => {
    const d = await policy("cms-lcd/L33718");
    expect(d.criteria_text).toContain(
      "reasonable and necessary \u2013 the beneficiary\u2019s sleep test",
    );
    expect(d.criteria_text).toMatch(/^-\s+An apnea-hypopnea index/m);
  });

  it("the same tables written in UTF-8 without a byte-order mark (as CMS has also published them) import to the same answers", async () => {
    const utf8Dir = mkdtempSync(path.join(os.tmpdir(), "coverage-excerpt-utf8-"));
    for (const name of readdirSync(EXCERPT).filter((n) => n.endsWith(".csv")))
      writeFileSync(path.join(utf8Dir, name), Buffer.from(rawText(name), "utf8"));
    // The excerpt must hold text that differs between the two encodings for this to test anything.
    expect(readFileSync(path.join(utf8Dir, "lcd.csv")).includes(Buffer.from("\u2013"))).toBe(true);
    const utf8Out = path.join(utf8Dir, "medicare.json");
    const r = await runInProcess(["data", "import", "mcd", utf8Dir, "-o", utf8Out]);
    expect(r.exitCode, r.stderr).toBe(0);
    const ask = (data: string, args: string[]) =>
      runInProcess(["--local", "--data", data, ...args]).then((x) => x.stdout);
    for (const args of [
      ["search", "--json", "--limit", "100"],
      ["search", "--json", "--limit", "100", "--retired"],
      ["policy", "cms-lcd/L33718", "--json"],
      ["policy", "cms-ncd/190.10", "--json"],
      ["policy", "cms-ncd/160.9", "--json"],
      ["policy", "cms-article/A56566", "--json"],
    ])
      expect(await ask(utf8Out, args), args.join(" ")).toBe(await ask(out, args));
  });
});
