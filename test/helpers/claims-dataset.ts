// A generated dataset of many payers, states (Medicare's split ones among them) and dates, and
// claim lines drawn against it, for the test that holds docs/sql/check.sql to `coverage check`.
// Deterministic: the same seed gives the same dataset and lines on every machine.
import { makeRandom as rng } from "../unit/snapshot/generated-dataset.js";

const CATEGORIES = [
  "commercial",
  "medicare_part_a",
  "medicare_part_b",
  "medicare_advantage",
  "medicaid",
  "individual_aca",
];
/** Split states, their jurisdictions, and a few others. */
export const CLAIM_STATES = [
  "CA",
  "NF",
  "SF",
  "NY",
  "DN",
  "QN",
  "UN",
  "MO",
  "EM",
  "WM",
  "TX",
  "FL",
];
const RELATIONSHIPS = ["COVERS", "COVERS", "COVERS", "DOES_NOT_COVER", "REFERENCES"];

/** A claim line as `check --input` reads it (NDJSON keys). */
export interface ClaimRow {
  procedure: string;
  diagnosis: string;
  state?: string;
  lob?: string;
  payer?: string;
  date: string;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const DAY = 86_400_000;
const START = Date.UTC(2018, 0, 1);

/** A dataset (`coverage-dataset` version 1) and the procedure and diagnosis pools it lists. */
export function generateClaimsDataset(seed = 42, payerCount = 12, versionCount = 400) {
  const rand = rng(seed);
  const int = (n: number) => Math.floor(rand() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)]!;
  const procedures = Array.from({ length: 25 }, (_, i) =>
    i % 4 === 3 ? `HCPCS:E${1000 + i}` : `CPT:${97000 + i}`,
  );
  const diagnoses = Array.from(
    { length: 40 },
    (_, i) => `${"MEJZ"[i % 4]}${10 + (i % 80)}.${i % 3 === 0 ? "9" : `${i % 10}1`}`,
  );
  const payers = Array.from({ length: payerCount }, (_, i) => ({
    payer_id: i === 0 ? "CMS" : `P${String(i).padStart(2, "0")}`,
    display_name: `Payer ${i}`,
  }));
  const lobs: Array<{ lob_id: string; payer_id: string; lob: string; state: string | null }> = [];
  for (const { payer_id } of payers)
    for (const lob of CATEGORIES.slice(0, 2 + int(4)))
      for (const state of [null, ...CLAIM_STATES.filter(() => rand() < 0.4)])
        lobs.push({ lob_id: `${payer_id}_${lob}_${state ?? "US"}`, payer_id, lob, state });
  const policies = [];
  for (let v = 0; v < versionCount; v++) {
    const payer = pick(payers).payer_id;
    const own = lobs.filter((l) => l.payer_id === payer);
    const from = START + int(2500) * DAY;
    const to = rand() < 0.3 ? from + (100 + int(900)) * DAY : null;
    const scope = new Set<string>();
    for (let i = 1 + int(4); i > 0; i--) scope.add(pick(own).lob_id);
    const codes = [];
    for (let i = 1 + int(3); i > 0; i--) {
      const [system, code] = pick(procedures).split(":") as [string, string];
      codes.push({ code_system: system, code, relationship: pick(RELATIONSHIPS), category: null });
    }
    const listed = rand() < 0.25 ? 0 : 1 + int(8);
    for (let i = 0; i < listed; i++)
      codes.push({
        code_system: "ICD10CM",
        code: pick(diagnoses),
        relationship: rand() < 0.8 ? "COVERS" : "DOES_NOT_COVER",
        category: rand() < 0.5 ? null : `Group ${1 + int(3)}`,
      });
    policies.push({
      policy_id: `${payer.toLowerCase()}/pol-${v}/${day(from)}`,
      policy_number: `POL-${v}`,
      title: `Generated policy ${v}`,
      effective_from_date: day(from),
      effective_to_date: to === null ? null : day(to),
      file_url: `https://example.com/${payer}/${v}.pdf`,
      file_type: "pdf",
      listing_url: `https://example.com/${payer}/`,
      summary: null,
      applicability: [...scope].map((lob_id) => {
        // Some links start after the version, or end before it does.
        const linkFrom = rand() < 0.2 ? from + int(400) * DAY : from;
        let linkTo = rand() < 0.2 ? linkFrom + (30 + int(500)) * DAY : to;
        if (linkTo !== null && linkTo <= linkFrom) linkTo = linkFrom + DAY;
        return { lob_id, from: day(linkFrom), to: linkTo === null ? null : day(linkTo) };
      }),
      codes,
    });
  }
  const dataset = {
    format: "coverage-dataset",
    version: 1,
    as_of: "2026-06-01",
    payers,
    lobs,
    policies,
  };
  return { dataset, procedures, diagnoses, payers: payers.map((p) => p.payer_id) };
}

/** Spellings of a diagnosis that `check` reads alike: dotted, dotless lower case, prefixed. */
function spell(code: string, how: number): string {
  if (how === 0) return code;
  if (how === 1) return code.replace(".", "").toLowerCase();
  return `ICD10CM:${code}`;
}

/** Claim lines against a generated dataset: its procedures and one nobody lists, every scope. */
export function generateClaims(
  pools: { procedures: string[]; diagnoses: string[]; payers: string[] },
  count = 300,
  seed = 7,
): ClaimRow[] {
  const rand = rng(seed);
  const int = (n: number) => Math.floor(rand() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)]!;
  const claims: ClaimRow[] = [];
  for (let i = 0; i < count; i++) {
    const procedure = i % 29 === 0 ? "CPT:99999" : pick(pools.procedures);
    const dx = Array.from({ length: int(4) }, () => spell(pick(pools.diagnoses), int(3)));
    const claim: ClaimRow = {
      // A bare code now and then (CPT when it starts with a digit, HCPCS otherwise), or one in
      // lower case with a space after the colon.
      procedure:
        rand() < 0.2
          ? procedure.slice(procedure.indexOf(":") + 1)
          : rand() < 0.15
            ? procedure.toLowerCase().replace(":", ": ")
            : procedure,
      diagnosis: dx.join(rand() < 0.5 ? ";" : ","),
      date: day(START - 200 * DAY + int(3400) * DAY),
    };
    if (rand() < 0.8)
      claim.state = rand() < 0.2 ? pick(CLAIM_STATES).toLowerCase() : pick(CLAIM_STATES);
    // A LOB as typed (`Medicare-Advantage`), a payer id in the wrong case (matches nothing).
    if (rand() < 0.3) claim.lob = pick(CATEGORIES);
    if (claim.lob && rand() < 0.2) claim.lob = claim.lob.toUpperCase().replaceAll("_", "-");
    if (rand() < 0.3) claim.payer = pick(pools.payers);
    if (claim.payer && rand() < 0.1) claim.payer = claim.payer.toLowerCase();
    claims.push(claim);
  }
  return claims;
}
