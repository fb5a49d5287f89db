import type {
  DownloadVariant,
  FilterRequest,
  LobsQuery,
  PayersQuery,
  UpdatesQuery,
} from "../contract/index.js";
import { buildQuery, buildPolicyPath, type ApiRequest } from "./request.js";

/** `POST /v1/policies/filter`. */
export function buildFilterRequest(body: FilterRequest): ApiRequest {
  return { method: "POST", path: "/v1/policies/filter", query: [], body };
}

/** `GET /v1/policies/{policy_id}`. */
export function buildPolicyRequest(policyId: string): ApiRequest {
  return { method: "GET", path: buildPolicyPath(policyId), query: [] };
}

/** `GET /v1/payers`. */
export function buildPayersRequest(query: PayersQuery): ApiRequest {
  return { method: "GET", path: "/v1/payers", query: buildQuery(query) };
}

/** `GET /v1/lobs`. */
export function buildLobsRequest(query: LobsQuery): ApiRequest {
  return { method: "GET", path: "/v1/lobs", query: buildQuery(query) };
}

/** `GET /v1/policies/updates`. */
export function buildUpdatesRequest(query: UpdatesQuery): ApiRequest {
  return { method: "GET", path: "/v1/policies/updates", query: buildQuery(query) };
}

/** `GET /v1/policies/{policy_id}/download-url`. */
export function buildDownloadUrlRequest(policyId: string, variant: DownloadVariant): ApiRequest {
  return {
    method: "GET",
    path: buildPolicyPath(policyId, "/download-url"),
    query: [["variant", variant]],
  };
}

/** `GET /health` and `GET /ready`. */
export function buildCheckRequest(which: "health" | "ready"): ApiRequest {
  return { method: "GET", path: `/${which}`, query: [] };
}

/**
 * The key check of `coverage health`: the API has no endpoint for it, so the cheapest request
 * that needs the key, `GET /v1/payers?limit=1` (one short item).
 */
export function buildKeyCheckRequest(): ApiRequest {
  return buildPayersRequest({ limit: 1 });
}
