// A generated dataset for the snapshot parity tests: dates of the years 0000 to 9999 (those
// below 1000 and 100 too, where day numbers and strings could part ways), links with their own
// periods, LOB ids with trailing separators, codes in several spellings and a catalogue whose
// last entry of a key wins, and titles and summaries of a few common words (so that a code's
// description ranks through long postings). Deterministic for a seed.
/** A small deterministic random source (mulberry32). */
export function makeRandom(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pad = (n: number, w: number) => String(n).padStart(w, "0");
/** `YYYY-MM-DD` of a year, month and day. */
export function dateOf(y: number, m: number, d: number) {
  return `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`;
}

/** The years dates are drawn from. */
export const YEARS = [
  0, 1, 50, 99, 100, 999, 1000, 1899, 1900, 1950, 1999, 2000, 2020, 2024, 2025, 2026, 2027, 2030,
  9999,
];

/** A dataset of at most `nVersions` versions (ids that repeat are left out). */
export function makeDataset(seed: number, nVersions: number) {
  const r = makeRandom(seed);
  const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)] as T;
  const randDate = () => {
    const y = pick(YEARS);
    const m = 1 + Math.floor(r() * 12);
    const d = 1 + Math.floor(r() * 28);
    return dateOf(y, m, d);
  };
  const payers = [
    { payer_id: "P1", display_name: "Alpha" },
    { payer_id: "P2", display_name: "beta" },
    { payer_id: "P_3", display_name: "Gamma" },
  ];
  const lobs = [
    { lob_id: "P1_commercial_US", payer_id: "P1", lob: "commercial", state: null },
    { lob_id: "P1_commercial_CA", payer_id: "P1", lob: "commercial", state: "CA" },
    { lob_id: "P1_medicaid_NY", payer_id: "P1", lob: "medicaid", state: "NY" },
    { lob_id: "P2_medicaid_", payer_id: "P2", lob: "medicaid", state: null },
    { lob_id: "P2_medicaid_TX", payer_id: "P2", lob: "medicaid", state: "TX" },
    { lob_id: "weird-nat", payer_id: "P2", lob: "commercial", state: null },
    { lob_id: "P_3_medicare_part_b_US", payer_id: "P_3", lob: "medicare_part_b", state: null },
    { lob_id: "P_3_medicare_part_b_CA", payer_id: "P_3", lob: "medicare_part_b", state: "CA" },
    { lob_id: "P_3_commercial_", payer_id: "P_3", lob: "commercial", state: "CA" },
    { lob_id: "unused_US", payer_id: "P1", lob: "individual_aca", state: null },
  ];
  const codeSpell: Array<[string, string]> = [
    ["ICD10CM", "E11.9"],
    ["ICD10CM", "e119"],
    ["ICD10CM", " E11.9 "],
    ["ICD10CM", "E1.19"],
    ["ICD10CM", "G47.33"],
    ["ICD10CM", "Z00.00"],
    ["HCPCS", "E0601"],
    ["HCPCS", "e0601"],
    ["HCPCS", "A1234"],
    ["CPT", "99213"],
    ["CPT", "0001U"],
    ["CPT", "x9"],
  ];
  const codes = [
    {
      code_system: "ICD10CM",
      code: "E11.9",
      description: "Type 2 diabetes mellitus without complications",
    },
    {
      code_system: "HCPCS",
      code: "E0601",
      description: "Continuous positive airway pressure device",
    },
    { code_system: "ICD10CM", code: "E119", description: "Diabetes the second entry wins" },
    {
      code_system: "ICD10CM",
      code: "G47.33",
      description: "Obstructive sleep apnea the adult pediatric",
    },
    { code_system: "CPT", code: "99213", description: "Office visit the established patient" },
    {
      code_system: "ICD10CM",
      code: "z00.00",
      description: "General adult medical examination the",
    },
  ];
  const words = [
    "sleep",
    "apnea",
    "diabetes",
    "the",
    "device",
    "therapy",
    "pressure",
    "office",
    "adult",
    "visit",
    "pump",
  ];
  const policies = [];
  const ids = new Set<string>();
  for (let i = 0; i < nVersions; i++) {
    let from = randDate();
    let to: string | null = r() < 0.5 ? null : randDate();
    if (to !== null && to <= from) [from, to] = to === from ? [from, null] : [to, from];
    const key = `K${Math.floor(r() * (nVersions / 2 + 1))}`;
    const id = `src/${key}/${from}`;
    if (ids.has(id)) continue;
    ids.add(id);
    const nLinks = Math.floor(r() * 4);
    const applicability = [];
    for (let k = 0; k < nLinks; k++) {
      let lf = randDate();
      let lt: string | null = r() < 0.5 ? null : randDate();
      if (lt !== null && lt <= lf) [lf, lt] = lt === lf ? [lf, null] : [lt, lf];
      applicability.push({ lob_id: pick(lobs).lob_id, from: lf, to: lt });
    }
    const nCodes = Math.floor(r() * 6);
    const cl = [];
    for (let k = 0; k < nCodes; k++) {
      const [sys, code] = pick(codeSpell);
      const c: Record<string, unknown> = {
        code_system: sys,
        code,
        relationship: pick(["COVERS", "DOES_NOT_COVER", "REFERENCES"]),
      };
      const cat = r();
      if (cat < 0.3) c.category = null;
      else if (cat < 0.5) c.category = "Devices";
      else if (cat < 0.6) c.category = "";
      else if (cat < 0.7) c.category = "devices";
      cl.push(c);
    }
    const title = Array.from({ length: 1 + Math.floor(r() * 5) }, () => pick(words)).join(" ");
    const summary =
      r() < 0.2 ? null : Array.from({ length: Math.floor(r() * 30) }, () => pick(words)).join(" ");
    policies.push({
      policy_id: id,
      policy_number: `N${i % 7}`,
      title,
      effective_from_date: from,
      effective_to_date: to,
      file_url: "https://x/y",
      file_type: "pdf",
      listing_url: "https://x/",
      summary,
      applicability,
      codes: cl,
    });
  }
  return {
    format: "coverage-dataset",
    version: 1,
    as_of: "2026-06-01",
    payers,
    lobs,
    codes,
    policies,
  };
}

/** Every date of the dataset, and the years' first days: the windows and todays to try. */
export function listDates(ds: ReturnType<typeof makeDataset>): string[] {
  const set = new Set<string>();
  for (const p of ds.policies) {
    set.add(p.effective_from_date);
    if (p.effective_to_date) set.add(p.effective_to_date);
    for (const l of p.applicability) {
      set.add(l.from);
      if (l.to) set.add(l.to);
    }
  }
  for (const y of YEARS) set.add(dateOf(y, 1, 1));
  set.add("1999-12-31");
  set.add("2000-01-01");
  set.add("0999-12-31");
  set.add("1000-01-01");
  return [...set].sort();
}
