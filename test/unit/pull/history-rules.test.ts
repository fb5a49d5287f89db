import { describe, expect, it } from "vitest";
import type { Row } from "../../../src/import/mcd/csv.js";
import { countChanges } from "../../../src/pull/changes.js";
import { CmsRecords, cmsDay } from "../../../src/pull/cms-records.js";
import { plainWords } from "../../../src/pull/history.js";
import { cmsVersionOf, seriesOf } from "../../../src/pull/series.js";
import type { DocumentChange } from "../../../src/snapshot/change-table.js";

describe("what 'alters no text' compares (plainWords)", () => {
  it.each([
    [
      "emphasis",
      "Covered when **ordered** by a physician.",
      "Covered when ordered by a physician.",
    ],
    ["white space", "Covered  when\n\nordered", "Covered when ordered"],
    ["list kind", "1. first\n2. second", "- first\n- second"],
    ["lettered list", "a. first\nb. second", "* first\n* second"],
    ["links", "See [NCD 240.4](https://www.cms.gov/x)", "See NCD 240.4"],
    ["table divider", "| a | b |\n| --- | :---: |\n| 1 | 2 |", "| a | b |\n|---|---|\n| 1 | 2 |"],
  ])("%s is no change", (_what, a, b) => {
    expect(plainWords(a)).toBe(plainWords(b));
  });

  it.each([
    ["a word", "Covered when ordered.", "Covered when prescribed."],
    ["a number", "once every 5 years", "once every 3 years"],
    ["case", "Covered", "covered"],
  ])("%s is a change", (_what, a, b) => {
    expect(plainWords(a)).not.toBe(plainWords(b));
  });
});

describe("ids and dates", () => {
  it.each([
    ["https://www.cms.gov/medicare-coverage-database/view/lcd.aspx?lcdid=33718&ver=52", "52"],
    ["https://www.cms.gov/medicare-coverage-database/view/ncd.aspx?ncdid=181&ncdver=1", "1"],
    ["https://example.org/policy.pdf", null],
  ])("cmsVersionOf(%s) = %s", (url, version) => expect(cmsVersionOf(url)).toBe(version));

  it.each([
    ["cms-lcd/L33718/2024-01-01", "cms-lcd/L33718"],
    ["cms-ncd/190.10/1997-10-01~2", "cms-ncd/190.10"],
  ])("seriesOf(%s) = %s", (id, series) => expect(seriesOf(id)).toBe(series));

  it.each([
    ["2025-10-25 00:00:00", "2025-10-25"],
    ["10/25/2025", "2025-10-25"],
    ["1/2/2024", "2024-01-02"],
    ["", null],
    ["soon", null],
  ])("cmsDay(%j) = %s", (value, day) => expect(cmsDay(value)).toBe(day));
});

const row = (values: Record<string, string>): Row => ({
  get: (c) => values[c] ?? "",
  line: 2,
});

describe("CMS's revision records", () => {
  it("joins the reasons through the lookup, takes a version's latest revision, and future retirements", () => {
    const records = new CmsRecords();
    const read = records.readers();
    read["lcd_x_reason_change.csv"]!(
      row({
        lcd_id: "33718",
        lcd_version: "52",
        reason_change_id: "55",
        reason_change_version: "3",
      }),
    );
    read["lcd_x_reason_change.csv"]!(
      row({
        lcd_id: "33718",
        lcd_version: "52",
        reason_change_id: "82",
        reason_change_version: "3",
        reason_change_other: "CMS Final Rule CMS-1780-F",
      }),
    );
    // The lookup may come after the rows that use it.
    read["reason_change_lookup.csv"]!(
      row({
        reason_change_id: "55",
        reason_change_version: "3",
        description: "Provider Education/Guidance",
      }),
    );
    read["reason_change_lookup.csv"]!(
      row({ reason_change_id: "82", reason_change_version: "3", description: "Other" }),
    );
    for (const [num, date] of [
      ["40", "11/02/2023"],
      ["41", "01/01/2024"],
      ["39", "01/01/2022"],
    ])
      read["lcd_x_revision_history.csv"]!(
        row({
          lcd_id: "33718",
          lcd_version: "52",
          rev_hist_num: num!,
          rev_hist_date: date!,
          rev_hist_exp: `<p>note ${num}</p>`,
        }),
      );
    read["article_future_retire.csv"]!(
      row({ article_id: "58019", retire_dt: "2026-08-29 00:00:00" }),
    );
    expect(records.notes()).toEqual([
      {
        series: "cms-lcd/L33718",
        cms_version: "52",
        revision_date: "2024-01-01",
        reason: "Provider Education/Guidance; Other: CMS Final Rule CMS-1780-F",
        explanation: "note 41",
      },
    ]);
    expect(records.futureRetire()).toEqual([
      { series: "cms-article/A58019", retire_on: "2026-08-29" },
    ]);
  });
});

describe("the summary after a pull counts the document changes", () => {
  const change = (kind: DocumentChange["change"], gained = 0, lost = 0): DocumentChange => ({
    as_of: "2026-08-10",
    id: "cms-lcd/L1",
    policy_number: "L1",
    title: "t",
    change: kind,
    old_version: null,
    new_version: null,
    cms_old_version: null,
    cms_new_version: null,
    codes_gained: Array.from({ length: gained }, (_, i) => ({
      code_system: "HCPCS",
      code: `E${i}`,
      relationship: "COVERS",
    })),
    codes_lost: Array.from({ length: lost }, (_, i) => ({
      code_system: "HCPCS",
      code: `K${i}`,
      relationship: "COVERS",
    })),
    reason: null,
    note: null,
  });
  it("new, revised and codes, retired; links gained and lost", () => {
    expect(
      countChanges([
        change("new", 3),
        change("revised", 1, 2),
        change("codes", 0, 1),
        change("retired"),
      ]),
    ).toEqual({ added: 1, revised: 2, retired: 1, linksGained: 4, linksLost: 3 });
  });
});
