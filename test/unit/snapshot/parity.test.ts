import { readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ApiRequest, QueryPairs } from "../../../src/api/request.js";
import { LobCategory, Sort, StateCode } from "../../../src/contract/index.js";
import { loadDataset, type LoadedDataset } from "../../../src/dataset/load.js";
import { handleApiRequest } from "../../../src/engine/router.js";
import { ROOT, RULES_DATA } from "../../helpers/cli.js";
import { HTTP_DATA } from "../../helpers/server.js";
import { buildSnapshot, SQLITE } from "../../helpers/snapshot.js";
import {
  ACCEPTANCE_DATA,
  ACCEPTANCE_TODAY,
  CASES,
  expectAnswer,
} from "../../fixtures/acceptance/cases.js";

/**
 * One engine, two stores: every request answered from a JSON dataset loaded in memory and from
 * its snapshot must give the same status and the same JSON, byte for byte. The requests are the
 * acceptance table, every detail and download link, the catalogue endpoints, and random filter
 * bodies (fast-check) drawn from each dataset's own codes, payers, LOBs, states, dates and words.
 */

const DATASETS = [
  path.join(ROOT, "fixtures", "dataset.json"),
  RULES_DATA,
  ACCEPTANCE_DATA,
  HTTP_DATA,
  path.join(ROOT, "test", "fixtures", "commands", "dataset.json"),
  ...["codes", "no-as-of", "scope", "shapes", "text", "time"].map((n) =>
    path.join(ROOT, "test", "fixtures", "engine-rules", `${n}.json`),
  ),
];

interface Pair {
  json: LoadedDataset;
  snapshot: LoadedDataset;
  raw: RawDataset;
}

interface RawDataset {
  as_of?: string | null;
  payers: Array<{ payer_id: string }>;
  lobs: Array<{ lob_id: string; state: string | null }>;
  policies: Array<{
    policy_id: string;
    title: string;
    summary: string | null;
    effective_from_date: string;
    effective_to_date: string | null;
    codes: Array<{ code_system: string; code: string }>;
  }>;
}

const pairs = new Map<string, Promise<Pair>>();

/** The dataset through both stores (the snapshot opened lazily, as `--data` opens it). */
function openPair(file: string): Promise<Pair> {
  let pair = pairs.get(file);
  if (!pair) {
    pair = (async () => {
      const { openSnapshot } = await import("../../../src/snapshot/store.js");
      return {
        json: await loadDataset(file),
        snapshot: await openSnapshot(await buildSnapshot(file)),
        raw: JSON.parse(readFileSync(file, "utf8")) as RawDataset,
      };
    })();
    pairs.set(file, pair);
  }
  return pair;
}

function answer(dataset: LoadedDataset, today: string, req: ApiRequest) {
  const res = handleApiRequest(
    { db: dataset.db, today, linkFor: (_v, variant, file) => `link:${variant}:${file}` },
    JSON.parse(JSON.stringify(req)) as ApiRequest,
  );
  return { status: res.status, body: JSON.stringify(res.body) };
}

function expectSame(pair: Pair, today: string, req: ApiRequest) {
  const a = answer(pair.json, today, req);
  const b = answer(pair.snapshot, today, req);
  expect(b.status).toBe(a.status);
  expect(b.body).toBe(a.body);
  return a;
}

function toRequest(method: "GET" | "POST", url: string, body?: unknown): ApiRequest {
  const q = url.indexOf("?");
  const query: QueryPairs = q < 0 ? [] : [...new URLSearchParams(url.slice(q + 1))];
  return { method, path: q < 0 ? url : url.slice(0, q), query, body };
}

const todaysOf = (raw: RawDataset) => [
  raw.as_of ?? "2026-11-21",
  "2025-06-01",
  "2020-01-01",
  "2030-01-01",
];

describe.skipIf(!SQLITE)("snapshot parity: the acceptance table through both stores", () => {
  it.each(CASES.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const pair = await openPair(ACCEPTANCE_DATA);
    const res = answer(pair.snapshot, ACCEPTANCE_TODAY, toRequest(c.method, c.url, c.json));
    expectAnswer(c, res.status, JSON.parse(res.body));
    expectSame(pair, ACCEPTANCE_TODAY, toRequest(c.method, c.url, c.json));
  });
});

describe.skipIf(!SQLITE)("snapshot parity: every endpoint of every test dataset", () => {
  it.each(DATASETS.map((f) => [path.relative(ROOT, f), f] as const))(
    "%s: details, download links, payers, LOBs, updates, fixed filters",
    async (_name, file) => {
      const pair = await openPair(file);
      const { raw } = pair;
      for (const today of todaysOf(raw)) {
        for (const p of raw.policies) {
          const at = `/v1/policies/${p.policy_id.split("/").map(encodeURIComponent).join("/")}`;
          expectSame(pair, today, toRequest("GET", at));
          expectSame(pair, today, toRequest("GET", `${at}/download-url`));
          expectSame(pair, today, toRequest("GET", `${at}/download-url?variant=text`));
        }
        expectSame(pair, today, toRequest("GET", "/v1/policies/no/such/2020-01-01"));
        for (const url of [
          "/v1/payers",
          "/v1/payers?lobs=commercial&lobs=medicare_part_b",
          "/v1/payers?limit=1&offset=1",
          "/v1/lobs",
          "/v1/lobs?states=CA&states=NY",
          `/v1/lobs?payer_ids=${raw.payers[0]?.payer_id ?? "X"}`,
          "/v1/policies/updates",
          "/v1/policies/updates?days=365",
          "/v1/policies/updates?days=1",
          "/v1/policies/updates?days=365&limit=2&offset=1",
          "/v1/policies/updates?days=0",
        ])
          expectSame(pair, today, toRequest("GET", url));
        for (const body of [
          {},
          { policies: { q: "therapy" } },
          { policies: { retired: true }, include_applicability: true },
          { policies: { retired: false }, include_code_groups: true },
          { policies: { states: ["CA"] }, sort: "title_asc" },
          { policies: { effective_date: { start: "2025-01-01", end: "2025-12-31" } } },
          { policies: { lob_ids: ["P1_commercial_"] } },
          { limit: 1, offset: 1, sort: "policy_number_desc" },
          { policies: { q: "" }, limit: 100 },
          { policies: { code_refs: { refs: [] } } },
        ])
          expectSame(pair, today, toRequest("POST", "/v1/policies/filter", body));
      }
    },
  );
});

/** A filter body drawn from a dataset's own vocabulary (and a few values it does not have). */
function filterBody(raw: RawDataset) {
  const codes = raw.policies.flatMap((p) => p.codes);
  const systems = [...new Set(codes.map((c) => c.code_system)), "CPT", "ICD10CM"];
  const spellings = [
    ...new Set(codes.flatMap((c) => [c.code, c.code.toLowerCase(), ` ${c.code.replace(".", "")}`])),
    "ZZZ99",
  ];
  const payers = [...raw.payers.map((p) => p.payer_id), "NOPE"];
  const lobIds = raw.lobs.flatMap((l) => [l.lob_id, l.lob_id.replace(/US$/, "")]);
  const states = [
    ...new Set([...raw.lobs.map((l) => l.state).filter((s): s is string => s !== null), "CA"]),
  ].filter((s) => (StateCode.options as readonly string[]).includes(s));
  const dates = [
    ...new Set(
      raw.policies.flatMap((p) => [p.effective_from_date, p.effective_to_date ?? "2025-06-01"]),
    ),
  ];
  const words = [
    ...new Set(
      raw.policies.flatMap((p) => `${p.title} ${p.summary ?? ""}`.split(/\W+/).slice(0, 4)),
    ),
    "therapy",
    "zzzz",
  ].filter(Boolean);
  const some = <T>(arb: fc.Arbitrary<T>) => fc.array(arb, { minLength: 0, maxLength: 3 });
  const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
  const ref = fc.record(
    {
      code_system: fc.constantFrom(...systems),
      codes: fc.array(fc.constantFrom(...spellings), { minLength: 1, maxLength: 3 }),
      relationship: maybe(
        fc.subarray(["COVERS", "DOES_NOT_COVER", "REFERENCES"], { minLength: 1 }),
      ),
    },
    { requiredKeys: ["code_system", "codes"] },
  );
  const policies = fc.record(
    {
      q: fc.oneof(
        fc.constant(""),
        fc.array(fc.constantFrom(...words), { maxLength: 3 }).map((w) => w.join(" ")),
      ),
      code_refs: fc.record(
        {
          refs: fc.array(ref, { minLength: 1, maxLength: 3 }),
          match: maybe(fc.constantFrom("any", "all")),
        },
        { requiredKeys: ["refs"] },
      ),
      payer_ids: some(fc.constantFrom(...payers)),
      lobs: some(fc.constantFrom(...LobCategory.options)),
      lob_ids: some(fc.constantFrom(...lobIds, "X_commercial_")),
      states: some(fc.constantFrom(...(states.length ? states : ["CA"]))),
      retired: fc.constantFrom(true, false, null),
      effective_date: fc.record(
        { start: maybe(fc.constantFrom(...dates)), end: maybe(fc.constantFrom(...dates)) },
        { requiredKeys: [] },
      ),
    },
    { requiredKeys: [] },
  );
  return fc.record(
    {
      policies,
      sort: fc.constantFrom(...Sort.options),
      limit: fc.integer({ min: 1, max: 100 }),
      offset: fc.integer({ min: 0, max: 30 }),
      include_applicability: fc.boolean(),
      include_code_groups: fc.boolean(),
    },
    { requiredKeys: [] },
  );
}

describe.skipIf(!SQLITE)("snapshot parity: random filter bodies (fast-check)", () => {
  it.each(DATASETS.map((f) => [path.relative(ROOT, f), f] as const))("%s", async (_name, file) => {
    const pair = await openPair(file);
    const todays = todaysOf(pair.raw);
    fc.assert(
      fc.property(filterBody(pair.raw), fc.constantFrom(...todays), (body, today) => {
        expectSame(pair, today, toRequest("POST", "/v1/policies/filter", body));
      }),
      { numRuns: 150 },
    );
  });
});
