import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { DownloadVariant, safeParseBounded } from "../contract/index.js";

/** Rule Download: links handed out by `coverage serve` are valid for 15 minutes. */
export const LINK_TTL_SECONDS = 15 * 60;

/** Where signed file links live on the server (no API key needed: the signature is the key). */
export const FILES_PREFIX = "/files/";

export type LinkCheck =
  { ok: true; policyId: string; variant: DownloadVariant } | { ok: false; detail: string };

export interface LinkSigner {
  /** Path and query of a signed link to a policy's file, expiring `ttl` seconds after `now`. */
  sign(policyId: string, variant: DownloadVariant, now?: number): string;
  /** Checks a `/files/...` path and its query: signature first, then expiry. */
  verify(pathname: string, query: URLSearchParams, now?: number): LinkCheck;
}

/** Signs and checks file links with HMAC-SHA256 (a random secret per process by default). */
export function createLinkSigner(
  secret: Buffer = randomBytes(32),
  ttlSeconds = LINK_TTL_SECONDS,
): LinkSigner {
  const mac = (policyId: string, variant: string, expires: string) =>
    createHmac("sha256", secret).update(`${policyId}\n${variant}\n${expires}`).digest();

  return {
    sign(policyId, variant, now = Date.now()) {
      const expires = String(Math.floor(now / 1000) + ttlSeconds);
      const path = policyId.split("/").map(encodeURIComponent).join("/");
      const signature = mac(policyId, variant, expires).toString("hex");
      return `${FILES_PREFIX}${path}?variant=${variant}&expires=${expires}&signature=${signature}`;
    },
    verify(pathname, query, now = Date.now()) {
      const invalid: LinkCheck = { ok: false, detail: "Invalid download link signature" };
      let policyId: string;
      try {
        policyId = pathname.slice(FILES_PREFIX.length).split("/").map(decodeURIComponent).join("/");
      } catch {
        return invalid;
      }
      const variant = safeParseBounded(DownloadVariant, query.get("variant"));
      const expires = query.get("expires") ?? "";
      const hex = query.get("signature") ?? "";
      // Buffer.from(…, "hex") stops at the first non-hex character: check the text itself.
      if (!/^[0-9a-f]{64}$/.test(hex)) return invalid;
      const given = Buffer.from(hex, "hex");
      if (!variant.success || !/^\d{1,12}$/.test(expires)) return invalid;
      const expected = mac(policyId, variant.data, expires);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return invalid;
      if (Math.floor(now / 1000) >= Number(expires))
        return { ok: false, detail: "Download link expired; ask for a new one" };
      return { ok: true, policyId, variant: variant.data };
    },
  };
}
