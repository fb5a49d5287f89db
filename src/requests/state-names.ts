import type { StateCode } from "../contract/index.js";

// Full names of the states and territories, for `--state California` -> "did you mean CA?".
const NAMES: Record<string, StateCode> = {
  Alabama: "AL",
  Alaska: "AK",
  Arizona: "AZ",
  Arkansas: "AR",
  California: "CA",
  Colorado: "CO",
  Connecticut: "CT",
  Delaware: "DE",
  Florida: "FL",
  Georgia: "GA",
  Hawaii: "HI",
  Idaho: "ID",
  Illinois: "IL",
  Indiana: "IN",
  Iowa: "IA",
  Kansas: "KS",
  Kentucky: "KY",
  Louisiana: "LA",
  Maine: "ME",
  Maryland: "MD",
  Massachusetts: "MA",
  Michigan: "MI",
  Minnesota: "MN",
  Mississippi: "MS",
  Missouri: "MO",
  Montana: "MT",
  Nebraska: "NE",
  Nevada: "NV",
  "New Hampshire": "NH",
  "New Jersey": "NJ",
  "New Mexico": "NM",
  "New York": "NY",
  "North Carolina": "NC",
  "North Dakota": "ND",
  Ohio: "OH",
  Oklahoma: "OK",
  Oregon: "OR",
  Pennsylvania: "PA",
  "Rhode Island": "RI",
  "South Carolina": "SC",
  "South Dakota": "SD",
  Tennessee: "TN",
  Texas: "TX",
  Utah: "UT",
  Vermont: "VT",
  Virginia: "VA",
  Washington: "WA",
  "West Virginia": "WV",
  Wisconsin: "WI",
  Wyoming: "WY",
  "District of Columbia": "DC",
  "Washington DC": "DC",
  "American Samoa": "AS",
  Guam: "GU",
  "Puerto Rico": "PR",
  "Virgin Islands": "VI",
  "US Virgin Islands": "VI",
  "Northern Mariana Islands": "CNMI",
};

/** Letters only, lower case: `new-york`, `New York` and `NEW_YORK` compare equal. */
function squeeze(name: string): string {
  return name.toLowerCase().replace(/[^a-z]/g, "");
}

const BY_NAME = new Map(Object.entries(NAMES).map(([name, code]) => [squeeze(name), code]));

/** The code of a state or territory written out in full (any case), or undefined. */
export function stateCodeForName(name: string): StateCode | undefined {
  return BY_NAME.get(squeeze(name));
}

/** The codes of the states whose names start with `text` (`Calif` -> CA, `New` -> NH NJ NM NY). */
export function stateCodesNamedLike(text: string): StateCode[] {
  const start = squeeze(text);
  if (start.length < 3) return [];
  return [...BY_NAME].filter(([name]) => name.startsWith(start)).map(([, code]) => code);
}
