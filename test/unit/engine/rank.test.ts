import { describe, expect, it } from "vitest";
import type { Sort } from "../../../src/contract/index.js";
import type { PolicyRecord } from "../../../src/engine/db.js";
import {
  buildComparator,
  compareByRelevance,
  scoreVersions,
  type Ranked,
} from "../../../src/engine/rank.js";
import { tokenize } from "../../../src/engine/text.js";
import { policy, rulesDb } from "./rules-fixture.js";

const db = rulesDb([
  policy("r/title/2020-01-01", { title: "Knee brace coverage", summary: "Devices for joints." }),
  policy("r/summary/2020-01-01", { title: "Orthotic devices", summary: "Covers a knee brace." }),
  policy("r/both/2020-01-01", { title: "Knee braces", summary: "Knee brace criteria." }),
  policy("r/none/2020-01-01", { title: "Sleep apnea", summary: "CPAP." }),
  policy("r/markup/2020-01-01", {
    title: "Walkers",
    summary: '<a href="knee">Walkers</a> and [aids](https://x.org/knee)',
  }),
  policy("r/longsum/2020-01-01", {
    title: "Knee supports",
    summary: Array.from({ length: 60 }, (_, i) => `word${i}`).join(" "),
  }),
  policy("r/shortsum/2020-01-01", { title: "Supports", summary: "Knee." }),
]);
const v = (id: string) => db.byId.get(id) as PolicyRecord;
const scoreOf = (versions: PolicyRecord[], q: string) =>
  Object.fromEntries(scoreVersions(versions, tokenize(q)).map((s, i) => [versions[i]?.series, s]));

describe("scoreVersions (rule Ordering: BM25, title above summary, markup ignored)", () => {
  it("gives null to versions matching no term and a positive number to the others", () => {
    const scores = scoreOf(db.policies, "knee");
    expect(scores["r/none"]).toBeNull();
    for (const id of ["r/title", "r/summary", "r/both", "r/longsum", "r/shortsum"])
      expect(scores[id]).toBeGreaterThan(0);
  });

  it("weights a title hit above the same hit in the summary", () => {
    const scores = scoreOf([v("r/title/2020-01-01"), v("r/summary/2020-01-01")], "knee");
    expect(scores["r/title"]).toBeGreaterThan(scores["r/summary"] as number);
  });

  it("keeps a title hit above a summary hit even when the summary is far shorter", () => {
    const scores = scoreOf([v("r/longsum/2020-01-01"), v("r/shortsum/2020-01-01")], "knee");
    expect(scores["r/longsum"]).toBeGreaterThan(scores["r/shortsum"] as number);
  });

  it("does not match words inside markup (tags, link targets)", () => {
    expect(scoreOf([v("r/markup/2020-01-01")], "knee")["r/markup"]).toBeNull();
    expect(scoreOf([v("r/markup/2020-01-01")], "walkers aids")["r/markup"]).toBeGreaterThan(0);
  });

  it("is case-insensitive and ignores punctuation in the query", () => {
    const versions = [v("r/title/2020-01-01"), v("r/none/2020-01-01")];
    expect(scoreVersions(versions, tokenize("KNEE!"))).toEqual(
      scoreVersions(versions, tokenize("knee")),
    );
  });

  it("scores more matched terms higher, rarer terms higher (idf over the filtered set)", () => {
    const scores = scoreOf(db.policies, "knee brace");
    expect(scores["r/both"]).toBeGreaterThan(scores["r/longsum"] as number);
    expect(scores["r/title"]).toBeGreaterThan(scores["r/longsum"] as number);
  });

  it("gives every version null without terms", () => {
    expect(scoreVersions(db.policies, [])).toEqual(db.policies.map(() => null));
  });
});

describe("compareByRelevance (rule Ordering: score desc, ties and null tail by policy id)", () => {
  const r = (id: string, score: number | null): Ranked => ({
    version: { policy_id: id } as PolicyRecord,
    score,
  });
  it("orders scores descending, ties by id, nulls last by id", () => {
    const items = [r("e", null), r("d", 1), r("a", null), r("c", 2), r("b", 1)];
    expect(items.sort(compareByRelevance).map((x) => x.version.policy_id)).toEqual([
      "c",
      "b",
      "d",
      "a",
      "e",
    ]);
  });
});

describe("buildComparator (rule Ordering: the other sorts and their tie-breaks)", () => {
  const rec = (policy_id: string, title: string, policy_number: string) =>
    ({ policy_id, title, policy_number }) as PolicyRecord;
  const items = [
    rec("p/b/2020-01-01", "beta", "N-2"),
    rec("p/a/2021-01-01", "Alpha", "n-10"),
    rec("p/a/2020-01-01", "alpha", "N-10"),
    rec("p/C/2020-01-01", "Gamma", "n-1"),
    rec("p/\u{1F600}/2020-01-01", "\u{1F600} emoji", "Z"),
    rec("p/\uFFFD/2020-01-01", "\uFFFD replacement", "z"),
  ];
  it.each<[Exclude<Sort, "relevance">, string[]]>([
    [
      "policy_id_asc",
      // Code points: "C" < "a" < "b" < U+FFFD < U+1F600 (not UTF-16 order, where the emoji is first).
      [
        "p/C/2020-01-01",
        "p/a/2020-01-01",
        "p/a/2021-01-01",
        "p/b/2020-01-01",
        "p/\uFFFD/2020-01-01",
        "p/\u{1F600}/2020-01-01",
      ],
    ],
    [
      "policy_id_desc",
      [
        "p/\u{1F600}/2020-01-01",
        "p/\uFFFD/2020-01-01",
        "p/b/2020-01-01",
        "p/a/2021-01-01",
        "p/a/2020-01-01",
        "p/C/2020-01-01",
      ],
    ],
    [
      "title_asc",
      [
        "p/a/2020-01-01",
        "p/a/2021-01-01",
        "p/b/2020-01-01",
        "p/C/2020-01-01",
        "p/\uFFFD/2020-01-01",
        "p/\u{1F600}/2020-01-01",
      ],
    ],
    [
      "title_desc",
      [
        "p/\u{1F600}/2020-01-01",
        "p/\uFFFD/2020-01-01",
        "p/C/2020-01-01",
        "p/b/2020-01-01",
        "p/a/2021-01-01",
        "p/a/2020-01-01",
      ],
    ],
    [
      "policy_number_asc",
      // "n-1" < "n-10" (twice, then by id) < "n-2" < "z" (twice, then by id); case-insensitive.
      [
        "p/C/2020-01-01",
        "p/a/2020-01-01",
        "p/a/2021-01-01",
        "p/b/2020-01-01",
        "p/\uFFFD/2020-01-01",
        "p/\u{1F600}/2020-01-01",
      ],
    ],
    [
      "policy_number_desc",
      [
        "p/\u{1F600}/2020-01-01",
        "p/\uFFFD/2020-01-01",
        "p/b/2020-01-01",
        "p/a/2021-01-01",
        "p/a/2020-01-01",
        "p/C/2020-01-01",
      ],
    ],
  ])("%s", (sort, expected) => {
    expect([...items].sort(buildComparator(sort)).map((x) => x.policy_id)).toEqual(expected);
  });

  it.each(["policy_id", "title", "policy_number"] as const)(
    "%s_desc is the exact reverse of %s_asc",
    (field) => {
      const asc = [...items].sort(buildComparator(`${field}_asc`)).map((x) => x.policy_id);
      const desc = [...items].sort(buildComparator(`${field}_desc`)).map((x) => x.policy_id);
      expect(desc).toEqual([...asc].reverse());
    },
  );
});
