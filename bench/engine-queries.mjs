// In-process query latency of the local engine after one load (run with `node --import tsx`,
// so the engine comes straight from TypeScript sources). Prints one JSON object on stdout.
//
//   node --import tsx bench/engine-queries.mjs bench/out/big.json [queries per kind] [src dir]
import path from "node:path";
import { pathToFileURL } from "node:url";
import { rng } from "./lib.mjs";

const src = path.resolve(process.argv[4] ?? path.join(import.meta.dirname, "..", "src"));
const load = (file) => import(pathToFileURL(path.join(src, file)).href);
const { loadDataset } = await load("dataset/load.ts");
const { createLocalTransport } = await load("backend/local.ts");
const { buildFilterRequest } = await load("api/endpoints.ts");

const file = process.argv[2];
const perKind = Number(process.argv[3] ?? 200);

const rand = rng(11);
const pick = (list) => list[Math.floor(rand() * list.length)];

const t0 = performance.now();
const loaded = await loadDataset(file);
const loadMs = performance.now() - t0;
const { db } = loaded;
const transport = createLocalTransport(loaded, db.asOf ?? "2026-06-01");

// Codes sampled link by link, so popular codes come up as often as users would ask for them.
const versions = db.policies;
const sampleCode = () => {
  const v = pick(versions);
  return pick(v.codes)?.code ?? "E11.9";
};
const states = [...new Set(db.lobs.map((l) => l.state).filter(Boolean))];
const words = [...new Set(versions.slice(0, 500).flatMap((v) => v.title.split(" ")))].filter((w) =>
  /^[a-z]{4,}$/.test(w),
);
const year = () => 2016 + Math.floor(rand() * 10);

const kinds = {
  code: () => ({
    policies: {
      code_refs: { refs: [{ code_system: "ICD10CM", codes: [sampleCode()] }] },
      states: [pick(states)],
    },
  }),
  state: () => ({ policies: { states: [pick(states)] } }),
  window: () => {
    const y = year();
    return { policies: { effective_date: { start: `${y}-01-01`, end: `${y}-12-31` } } };
  },
  q: () => ({ policies: { q: `${pick(words)} ${pick(words)}` } }),
};

const result = { loadMs, versions: versions.length, links: 0, kinds: {} };
for (const v of versions) result.links += v.codes.length;
for (const [kind, make] of Object.entries(kinds)) {
  const times = [];
  let hits = 0;
  for (let i = 0; i < perKind; i++) {
    const req = buildFilterRequest(make());
    const start = performance.now();
    const res = await transport.send(req);
    times.push(performance.now() - start);
    if (res.status !== 200)
      throw new Error(`${kind}: status ${res.status} ${JSON.stringify(res.body)}`);
    hits += res.body.data.length;
  }
  result.kinds[kind] = { first: times[0], times, avgResults: hits / perKind };
}
result.maxRssKb = process.resourceUsage().maxRSS;
process.stdout.write(JSON.stringify(result) + "\n");
