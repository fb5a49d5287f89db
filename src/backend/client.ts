import type * as z from "zod";
import {
  buildDownloadUrlRequest,
  buildCheckRequest,
  buildKeyCheckRequest,
  buildFilterRequest,
  buildLobsRequest,
  buildPayersRequest,
  buildPolicyRequest,
  buildUpdatesRequest,
} from "../api/endpoints.js";
import { findFixedPath, type ApiRequest } from "../api/request.js";
import { hasBadSegment } from "../domain/policy-id.js";
import {
  DownloadLink,
  DownloadQuery,
  FilterRequest,
  formatDetailLines,
  formatValidationDetail,
  safeParseBounded,
  LobPage,
  LobsQuery,
  PayerPage,
  PayersQuery,
  PolicyDetail,
  PolicyPathParams,
  PolicyPage,
  PolicyUpdatePage,
  UpdatesQuery,
  type DownloadVariant,
  type Envelope,
  type Lob,
  type Payer,
  type Policy,
  type PolicyUpdate,
} from "../contract/index.js";
import {
  errorFromResponse,
  NotFoundError,
  UnexpectedError,
  UsageError,
  validationError,
} from "../errors.js";
import { describeLobTypo, isLobTypo } from "../requests/lob-typos.js";
import { describeStateTypo, isStateTypo } from "../requests/state-typos.js";
import type { Transport } from "./transport.js";

/** Validates input with the contract's schema; a failure lists each problem as `loc: msg`. */
function validateInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  where: "body" | "query" | "path",
  hint?: (loc: Array<string | number>) => string | undefined,
): z.infer<S> {
  const result = safeParseBounded(schema, input);
  if (result.success) return result.data;
  const detail = formatValidationDetail(result.error, input, [where]);
  const lines = formatDetailLines(detail).map((line, i) => {
    const item = detail[i];
    const flag = hint?.(item?.loc ?? []);
    // A state typo is named with its closest codes, not beside the list of all 63.
    const typo = typeof item?.input === "string" ? item.input : undefined;
    const text =
      item && typo !== undefined && isStateTypo(item)
        ? `${item.loc.join(".")}: ${describeStateTypo(typo)}`
        : item && typo !== undefined && isLobTypo(item)
          ? `${item.loc.join(".")}: ${describeLobTypo(typo)}`
          : line;
    return flag ? `${text} (${flag})` : text;
  });
  throw validationError(
    lines,
    detail.some(isStateTypo)
      ? "Fix the values named above. State codes are the two-letter postal codes (CA, NY, TX…), DC, AS, GU, PR, VI and CNMI, and Medicare's sub-state NF, SF, DN, QN, UN, EM, WM (see --help)."
      : "Fix the values named above (add --help to the command to see what each flag accepts).",
  );
}

export interface CheckResult {
  status: number;
  body: unknown;
}

/** The id checked as the path parameter `policy_id` (a 422's `["path","policy_id"]`). */
function policyIdOf(id: string): string {
  // Said in words, not as the wire's `path.policy_id: String should have at least 1 character`.
  if (id.trim() === "")
    throw new UsageError(
      "the policy id is empty",
      "Give a version id (cms-lcd/L33718/2026-11-01) or a key (cms-lcd/L33718); `coverage search` finds them.",
    );
  return validateInput(PolicyPathParams, { policy_id: id }, "path").policy_id;
}

/**
 * An id the policy path can carry. One that would reach another path (a fixed endpoint, or a
 * `..` or empty segment) is not a policy: 404 without asking, as the engine would answer.
 */
function addressablePolicyId(id: string, suffix: "" | "/download-url"): string {
  if (hasBadSegment(id))
    throw new NotFoundError(
      "Policy not found",
      "Policy ids have no empty, `.` or `..` segments (no leading, trailing or double slash): check the id with `coverage search`.",
    );
  const fixed = suffix ? undefined : findFixedPath(id);
  if (fixed === undefined) return id;
  const instead = fixed.endsWith("/download-url")
    ? "Policy ids never end in /download-url; to fetch a policy's file, run `coverage download ID`."
    : `${fixed} is an endpoint of its own, not a policy; run \`coverage ${id === "updates" ? "updates" : "search"}\` instead.`;
  throw new NotFoundError("Policy not found", instead);
}

/** The API's operations over a transport; requests and responses checked against the contract. */
export class ApiClient {
  constructor(readonly transport: Transport) {}

  /** Validated requests, without sending (also what `--dry-run` prints). */
  readonly build = {
    filter: (body: unknown, hint?: (loc: Array<string | number>) => string | undefined) =>
      buildFilterRequest(validateInput(FilterRequest, body, "body", hint)),
    policy: (id: string) => buildPolicyRequest(addressablePolicyId(policyIdOf(id), "")),
    payers: (q: unknown, hint?: (loc: Array<string | number>) => string | undefined) =>
      buildPayersRequest(validateInput(PayersQuery, q, "query", hint)),
    lobs: (q: unknown, hint?: (loc: Array<string | number>) => string | undefined) =>
      buildLobsRequest(validateInput(LobsQuery, q, "query", hint)),
    updates: (q: unknown, hint?: (loc: Array<string | number>) => string | undefined) =>
      buildUpdatesRequest(validateInput(UpdatesQuery, q, "query", hint)),
    downloadUrl: (id: string, variant: DownloadVariant) =>
      buildDownloadUrlRequest(
        addressablePolicyId(policyIdOf(id), "/download-url"),
        validateInput(DownloadQuery, { variant }, "query").variant ?? "display",
      ),
  };

  /** Sends a request; maps error statuses to CLI errors and checks the body's shape. */
  async send<S extends z.ZodType>(req: ApiRequest, schema: S, what: string): Promise<z.infer<S>> {
    const res = await this.transport.send(req);
    if (res.status < 200 || res.status >= 300) throw errorFromResponse(res.status, res.body, what);
    const parsed = safeParseBounded(schema, res.body);
    if (!parsed.success) {
      throw new UnexpectedError(
        `malformed response from ${req.method} ${req.path}`,
        "The server's answer is not the documented shape; check --api-url, or report it.",
        parsed.error.issues.slice(0, 5).map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`),
      );
    }
    // The raw body, not zod's copy: `--json` prints exactly what the server sent.
    return res.body as z.infer<S>;
  }

  filter(req: ApiRequest): Promise<Envelope<Policy>> {
    return this.send(req, PolicyPage, "search");
  }
  policy(req: ApiRequest): Promise<PolicyDetail> {
    return this.send(req, PolicyDetail, "policy");
  }
  payers(req: ApiRequest): Promise<Envelope<Payer>> {
    return this.send(req, PayerPage, "payers");
  }
  lobs(req: ApiRequest): Promise<Envelope<Lob>> {
    return this.send(req, LobPage, "lobs");
  }
  updates(req: ApiRequest): Promise<Envelope<PolicyUpdate>> {
    return this.send(req, PolicyUpdatePage, "updates");
  }
  async downloadUrl(req: ApiRequest): Promise<DownloadLink> {
    const link = await this.send(req, DownloadLink, "download link");
    // Only the in-process engine hands out file:// links; from a server, such a link would make
    // the CLI copy a file of this machine wherever the server likes.
    if (this.transport.kind !== "local" && !/^https?:\/\//i.test(link.url))
      throw new UnexpectedError(
        `malformed response from ${req.method} ${req.path}: the download link is not an http(s) URL`,
        "The server's answer is not the documented shape; check --api-url, or report it.",
      );
    return link;
  }

  /** `/health` or `/ready`, whatever the status (the health command reports both). */
  async check(which: "health" | "ready"): Promise<CheckResult> {
    const res = await this.transport.send(buildCheckRequest(which));
    return { status: res.status, body: res.body };
  }

  /** Whether the API accepts the key (an authenticated request; a 2xx body is not kept). */
  async checkKey(): Promise<CheckResult> {
    const res = await this.transport.send(buildKeyCheckRequest());
    const ok = res.status >= 200 && res.status < 300;
    return { status: res.status, body: ok ? { key: "accepted" } : res.body };
  }
}
