import { requestUrl, type ApiRequest } from "../api/request.js";

/** The `--dry-run` object: method, full URL, the headers sent (key masked) and the body for POST. */
export function describeRequest(baseUrl: string, req: ApiRequest): Record<string, unknown> {
  // The key goes only with /v1 requests: the checks are sent without it (spec: not shown).
  const headers: Record<string, string> = req.path.startsWith("/v1/") ? { "x-api-key": "***" } : {};
  if (req.body !== undefined) headers["content-type"] = "application/json";
  return {
    method: req.method,
    url: requestUrl(baseUrl, req),
    headers,
    ...(req.body !== undefined ? { body: req.body } : {}),
  };
}
