#!/usr/bin/env node
// Writes a synthetic, deterministic `coverage-dataset` (version 1) for the scale benchmark.
//
//   node bench/generate-dataset.mjs [--out bench/out/big.json] [--versions 20000]
//        [--links 1000000] [--payers 50] [--lobs 500] [--codes 30000] [--seed 7]
//        [--procedures 0]
//
// The shape follows the Medicare articles (many ICD-10-CM links per policy, a few very popular
// codes, most codes rare): code popularity is skewed, so a code such as E11.9 sits in a few
// percent of the versions, like a common diagnosis does in the real catalogue.
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { procedureOf, rng } from "./lib.mjs";

const { values: opts } = parseArgs({
  options: {
    out: { type: "string", default: "bench/out/big.json" },
    versions: { type: "string", default: "20000" },
    links: { type: "string", default: "1000000" },
    payers: { type: "string", default: "50" },
    lobs: { type: "string", default: "500" },
    codes: { type: "string", default: "30000" },
    seed: { type: "string", default: "7" },
    // CPT/HCPCS codes each version also lists (1 to 4 of them), for `coverage check`: procedure
    // i is CPT 9xxxx, every fifth one HCPCS Exxxx (procedureOf in lib.mjs; bench/check.mjs makes
    // claim lines from the same formula). 0 leaves the dataset as it was.
    procedures: { type: "string", default: "0" },
  },
});

const VERSIONS = Number(opts.versions);
const LINKS = Number(opts.links);
const PAYERS = Number(opts.payers);
const LOBS = Number(opts.lobs);
const CODES = Number(opts.codes);
const PROCEDURES = Number(opts.procedures);

const rand = rng(Number(opts.seed));
const int = (n) => Math.floor(rand() * n);
const pick = (list) => list[int(list.length)];

const CATEGORIES = [
  "commercial",
  "medicare_part_a",
  "medicare_part_b",
  "medicare_advantage",
  "medicare_part_d",
  "medicaid",
  "individual_aca",
];
const STATES =
  "AL AK AZ AR CA CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY DC PR".split(
    " ",
  );
const WORDS = (
  "therapy physical occupational speech diabetes mellitus insulin pump glucose monitor continuous " +
  "sleep apnea airway pressure device oxygen home infusion wound care negative pressure " +
  "cardiac rehabilitation pulmonary imaging magnetic resonance tomography ultrasound " +
  "orthotic prosthetic brace knee hip spine fusion injection epidural facet nerve block " +
  "ablation radiofrequency genetic testing molecular pathology laboratory panel screening " +
  "colonoscopy mammography bariatric surgery obesity weight management nutrition counseling " +
  "dialysis kidney transplant hepatitis vaccine immunization chemotherapy oncology radiation " +
  "proton beam hyperbaric durable medical equipment wheelchair mobility hospital bed " +
  "ambulance transport telehealth behavioral health autism applied analysis vision hearing " +
  "cochlear implant dental anesthesia allergy biologic infusion site of care medical necessity"
).split(" ");
const phrase = (min, max) => {
  const n = min + int(max - min + 1);
  const out = [];
  for (let i = 0; i < n; i++) out.push(pick(WORDS));
  return out.join(" ");
};

// ICD-10-CM-looking codes, dotted: letter, two digits, a dot, one or two characters.
function icdUniverse(n) {
  const letters = "ABCDEFGHIJKLMNOPQRSTVWXYZ";
  const set = new Set(["E11.9", "E11.65", "I10.0", "Z00.00", "Z00.01"]);
  while (set.size < n) {
    const letter = letters[int(letters.length)];
    const digits = String(int(100)).padStart(2, "0");
    const sub = rand() < 0.5 ? String(int(10)) : `${int(10)}${int(10)}`;
    set.add(`${letter}${digits}.${sub}`);
  }
  const list = [...set].slice(5);
  // Popularity is by position: the first codes are the common ones. Shuffle, then put the
  // named codes at fixed ranks so the benchmark's queries hit a known kind of code.
  for (let i = list.length - 1; i > 0; i--) {
    const j = int(i + 1);
    [list[i], list[j]] = [list[j], list[i]];
  }
  list.splice(50, 0, "E11.9");
  list.splice(10, 0, "I10.0");
  list.splice(400, 0, "E11.65");
  return list;
}
const icd = icdUniverse(CODES);
// rank ~ N * u^3: a few codes are everywhere, most are rare.
const popularCode = () => icd[Math.min(icd.length - 1, Math.floor(icd.length * rand() ** 3))];

const payers = [];
for (let i = 0; i < PAYERS; i++) {
  payers.push({ payer_id: `P${String(i).padStart(2, "0")}`, display_name: `Payer ${i} Health` });
}
const lobs = [];
const lobsByPayer = new Map(payers.map((p) => [p.payer_id, []]));
for (let i = 0; i < LOBS; i++) {
  const payer = payers[i % PAYERS];
  const k = Math.floor(i / PAYERS);
  const category = CATEGORIES[k % CATEGORIES.length];
  // The first LOB of each payer is nationwide; the rest are per state.
  const state = k === 0 ? null : STATES[(i * 7 + k) % STATES.length];
  const lob = {
    lob_id: `${payer.payer_id}_${category}_${state ?? "US"}_${k}`,
    payer_id: payer.payer_id,
    lob: category,
    state,
  };
  lobs.push(lob);
  lobsByPayer.get(payer.payer_id).push(lob);
}

const day = (ms) => new Date(ms).toISOString().slice(0, 10);
const DAY = 86_400_000;
const START = Date.UTC(2015, 0, 1);

const out = path.resolve(opts.out);
mkdirSync(path.dirname(out), { recursive: true });
const fd = openSync(out, "w");
let buffer = [];
let buffered = 0;
const emit = (s) => {
  buffer.push(s);
  buffered += s.length;
  if (buffered > 1 << 20) flush();
};
const flush = () => {
  writeSync(fd, buffer.join(""));
  buffer = [];
  buffered = 0;
};

emit('{"format":"coverage-dataset","version":1,"as_of":"2026-06-01",\n');
emit(`"payers":${JSON.stringify(payers)},\n`);
emit(`"lobs":[\n${lobs.map((l) => JSON.stringify(l)).join(",\n")}\n],\n`);
emit('"codes":[\n');
emit(
  icd
    .map((code) =>
      JSON.stringify({
        code_system: "ICD10CM",
        code,
        description:
          code === "E11.9"
            ? "Type 2 diabetes mellitus without complications"
            : `${phrase(2, 5)} disorder`,
      }),
    )
    .join(",\n"),
);
emit("\n],\n");
emit('"policies":[\n');

const RELS = ["COVERS", "COVERS", "COVERS", "COVERS", "COVERS", "COVERS", "COVERS"];
RELS.push("DOES_NOT_COVER", "DOES_NOT_COVER", "REFERENCES");
let written = 0;
let links = 0;
let series = 0;
while (written < VERSIONS) {
  const payer = payers[int(PAYERS)];
  const payerLobs = lobsByPayer.get(payer.payer_id);
  const key = `POL-${String(series++).padStart(6, "0")}`;
  const count = Math.min(VERSIONS - written, 1 + int(4));
  const title = phrase(3, 7);
  const scope = [];
  const scopeSize = 1 + int(Math.min(6, payerLobs.length));
  for (let i = 0; i < scopeSize; i++) scope.push(pick(payerLobs).lob_id);
  let from = START + int(3000) * DAY;
  for (let v = 0; v < count; v++) {
    const next = from + (150 + int(600)) * DAY;
    // The last version is open unless the whole policy was withdrawn.
    const to = v < count - 1 || rand() < 0.1 ? next : null;
    const fromDay = day(from);
    const toDay = to === null ? null : day(to);
    // Links: the remaining budget spread over the remaining versions, skewed per version.
    const target = Math.max(
      1,
      Math.round(((LINKS - links) / (VERSIONS - written)) * 3 * rand() ** 2),
    );
    const codes = new Set();
    while (codes.size < target) codes.add(popularCode());
    links += codes.size;
    const policy = {
      policy_id: `${payer.payer_id.toLowerCase()}/${key}/${fromDay}`,
      policy_number: `${key}-${v + 1}`,
      title: `${title}${v ? ` (revision ${v + 1})` : ""}`,
      effective_from_date: fromDay,
      effective_to_date: toDay,
      file_url: `https://example.com/${payer.payer_id}/${key}/${fromDay}.pdf`,
      file_type: "pdf",
      listing_url: `https://example.com/${payer.payer_id}/policies`,
      summary: rand() < 0.05 ? null : `Coverage of ${phrase(15, 40)}.`,
      criteria_text: rand() < 0.5 ? null : `## Criteria\n${phrase(20, 60)}`,
      applicability: [...new Set(scope)].map((lob_id) => ({ lob_id, from: fromDay, to: toDay })),
      codes: [...codes].map((code) => ({
        code_system: "ICD10CM",
        code,
        relationship: pick(RELS),
        category: rand() < 0.7 ? null : `Group ${1 + int(5)}`,
      })),
    };
    // Drawn only when asked, so that the default dataset stays the same, byte for byte.
    if (PROCEDURES > 0) {
      const picked = new Set();
      const n = 1 + int(4);
      while (picked.size < n)
        picked.add(Math.min(PROCEDURES - 1, Math.floor(PROCEDURES * rand() ** 2)));
      for (const i of picked) {
        const r = rand();
        const relationship = r < 0.8 ? "COVERS" : r < 0.9 ? "DOES_NOT_COVER" : "REFERENCES";
        policy.codes.unshift({ ...procedureOf(i), relationship, category: null });
      }
    }
    emit(`${written ? ",\n" : ""}${JSON.stringify(policy)}`);
    written++;
    from = next;
  }
}
emit("\n]}\n");
flush();
closeSync(fd);
process.stderr.write(
  `wrote ${path.relative(process.cwd(), out)}: ${written} versions, ${links} code links, ${PAYERS} payers, ${LOBS} LOBs\n`,
);
