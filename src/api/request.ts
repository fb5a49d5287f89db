import type { ApiRequest, QueryPairs } from "../contract/api-request.js";

// The request types live in contract/ (the engine's router takes them too).
export type { ApiRequest, ApiResponse, HttpMethod, QueryPairs } from "../contract/api-request.js";

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
