import { describe, expect, it } from "vitest";
import { createLinkSigner, LINK_TTL_SECONDS } from "../../../src/server/links.js";

const SECRET = Buffer.alloc(32, 7);
const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);

function split(link: string): [string, URLSearchParams] {
  const u = new URL(link, "http://x");
  return [u.pathname, u.searchParams];
}

describe("signed file links", () => {
  const signer = createLinkSigner(SECRET);

  it("a fresh link verifies, giving back the id (slashes and spaces) and variant", () => {
    const link = signer.sign("cms lcd/L1/2026-01-01", "text", T0);
    expect(link).toMatch(
      /^\/files\/cms%20lcd\/L1\/2026-01-01\?variant=text&expires=\d+&signature=[0-9a-f]{64}$/,
    );
    expect(signer.verify(...split(link), T0)).toEqual({
      ok: true,
      policyId: "cms lcd/L1/2026-01-01",
      variant: "text",
    });
  });

  it("is valid for 15 minutes, then 403-worthy as expired", () => {
    expect(LINK_TTL_SECONDS).toBe(900);
    const [path, query] = split(signer.sign("a/b/2026-01-01", "display", T0));
    expect(signer.verify(path, query, T0 + 899_000).ok).toBe(true);
    expect(signer.verify(path, query, T0 + 900_000)).toEqual({
      ok: false,
      detail: "Download link expired; ask for a new one",
    });
  });

  it.each([
    [
      "the signature",
      (p: string, q: URLSearchParams) => [
        p,
        set(q, "signature", "00" + q.get("signature")!.slice(2)),
      ],
    ],
    [
      "the expiry",
      (p: string, q: URLSearchParams) => [
        p,
        set(q, "expires", String(Number(q.get("expires")) + 60)),
      ],
    ],
    ["the variant", (p: string, q: URLSearchParams) => [p, set(q, "variant", "text")]],
    ["the id", (p: string, q: URLSearchParams) => [p.replace("/b/", "/c/"), q]],
    ["a missing signature", (p: string, q: URLSearchParams) => [p, del(q, "signature")]],
    ["a non-hex signature", (p: string, q: URLSearchParams) => [p, set(q, "signature", "zz")]],
    ...["x", "0", "%00", "zzzz", "00"].map(
      (extra) =>
        [
          `a signature with ${JSON.stringify(extra)} appended`,
          (p: string, q: URLSearchParams) => [p, set(q, "signature", q.get("signature")! + extra)],
        ] as const,
    ),
    [
      "an upper-case signature",
      (p: string, q: URLSearchParams) => [
        p,
        set(q, "signature", q.get("signature")!.toUpperCase()),
      ],
    ],
    ["a bad escape in the path", (p: string, q: URLSearchParams) => [p + "%E0%A4%A", q]],
  ] as const)("refuses a link with tampered %s", (_name, tamper) => {
    const [path, query] = split(signer.sign("a/b/2026-01-01", "display", T0));
    const [p, q] = tamper(path, query) as [string, URLSearchParams];
    expect(signer.verify(p, q, T0)).toEqual({
      ok: false,
      detail: "Invalid download link signature",
    });
  });

  it("another process (another secret) does not accept the link", () => {
    const link = signer.sign("a/b/2026-01-01", "display", T0);
    expect(createLinkSigner(Buffer.alloc(32, 8)).verify(...split(link), T0).ok).toBe(false);
  });
});

function set(q: URLSearchParams, k: string, v: string): URLSearchParams {
  const c = new URLSearchParams(q);
  c.set(k, v);
  return c;
}
function del(q: URLSearchParams, k: string): URLSearchParams {
  const c = new URLSearchParams(q);
  c.delete(k);
  return c;
}
