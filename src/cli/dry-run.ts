import { buildRequestUrl, type ApiRequest } from "../api/request.js";

/** The `--dry-run` object: method, full URL, the headers sent (key masked) and the body for POST. */
export function describeRequest(
  baseUrl: string,
  req: ApiRequest,
  keySet: boolean,
): Record<string, unknown> {
  // Every request carries the key; a /v1 request is never sent without one (exit 3 first),
  // while the checks, which need not require it, go without when none is set.
  const headers: Record<string, string> =
    keySet || req.path.startsWith("/v1/") ? { "x-api-key": "***" } : {};
  if (req.body !== undefined) headers["content-type"] = "application/json";
  return {
    method: req.method,
    url: buildRequestUrl(baseUrl, req),
    headers,
    ...(req.body !== undefined ? { body: req.body } : {}),
  };
}
