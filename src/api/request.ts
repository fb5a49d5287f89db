/** Query parameters in wire order; array values are repeated keys (`?lobs=a&lobs=b`). */
export type QueryPairs = Array<[string, string]>;

export type HttpMethod = "GET" | "POST";

/** One API call, transport-neutral: what the HTTP client sends and the engine's router takes. */
export interface ApiRequest {
  method: HttpMethod;
  /** Percent-encoded path, from the API root (`/v1/...`, `/health`). */
  path: string;
  query: QueryPairs;
  body?: unknown;
  /**
   * The body as written, where it differs from `body`: number literals too large for a double
   * kept as NumberLiteral. A 422 quotes this one; validation reads `body`.
   */
  bodyAsWritten?: unknown;
}

export interface ApiResponse {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * The fixed API path a policy id would address instead of `GET /v1/policies/{policy_id}`:
 * `updates` and `filter` are endpoints of their own, and `.../download-url` is a file link.
 * No real id can be one (ids are `<source>/<key>/<date>`).
 */
export function findFixedPath(policyId: string): string | undefined {
  if (policyId === "updates" || policyId === "filter") return `/v1/policies/${policyId}`;
  if (policyId.endsWith("/download-url")) return "/v1/policies/{policy_id}/download-url";
  return undefined;
}

/**
 * Whether an id has an empty, `.` or `..` segment. URLs resolve dot segments (percent-encoded
 * too, as `%2E`), so `policy ../payers` would ask for `/v1/payers`, and servers differ on
 * empty ones (`updates/` is the updates endpoint to some): such an id cannot be sent. Real ids
 * are `<source>/<key>/<date>`.
 */
export function hasBadSegment(policyId: string): boolean {
  return policyId.split("/").some((s) => s === "" || s === "." || s === "..");
}

/** `/v1/policies/{policy_id}{suffix}`, each id segment percent-encoded and its slashes kept. */
export function buildPolicyPath(policyId: string, suffix = ""): string {
  return `/v1/policies/${policyId.split("/").map(encodeURIComponent).join("/")}${suffix}`;
}

/** Flattens defined query values into pairs; arrays become repeated keys. */
export function buildQuery(params: Record<string, unknown>): QueryPairs {
  const pairs: QueryPairs = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    for (const v of Array.isArray(value) ? value : [value]) pairs.push([key, String(v)]);
  }
  return pairs;
}

/** The full URL of a request against a base URL (whose own path prefix is kept). */
export function buildRequestUrl(baseUrl: string, req: ApiRequest): string {
  const base = baseUrl.replace(/\/+$/, "");
  const qs = new URLSearchParams(req.query).toString();
  return `${base}${req.path}${qs ? `?${qs}` : ""}`;
}
