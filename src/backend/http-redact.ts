/** Query parameters that carry a credential or a link signature: never printed. */
const SECRET_PARAMS = new Set([
  "signature",
  "sig",
  "token",
  "access_token",
  "api_key",
  "apikey",
  "key",
  "x-amz-signature",
  "x-amz-credential",
  "x-amz-security-token",
  "x-goog-signature",
  "x-goog-credential",
]);

const MASK = "***";

function maskQuery(query: string): string {
  return query
    .split("&")
    .map((pair) => {
      const eq = pair.indexOf("=");
      const rawName = eq < 0 ? pair : pair.slice(0, eq);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, " "));
      } catch {
        // A malformed escape: compare the raw name.
      }
      return eq >= 0 && SECRET_PARAMS.has(name.toLowerCase()) ? `${rawName}=${MASK}` : pair;
    })
    .join("&");
}

/**
 * A URL (or a path with a query) safe to print: signature-like query values and any password
 * in the authority are `***`, and every given secret is masked wherever it appears.
 */
export function redactUrl(url: string, secrets: ReadonlyArray<string | undefined> = []): string {
  let out = url.replace(/^([a-z][a-z0-9+.-]*:\/\/)([^/@?#]*)@/i, (_m, scheme: string) => {
    return `${scheme}${MASK}@`;
  });
  const q = out.indexOf("?");
  if (q >= 0) {
    const hash = out.indexOf("#", q);
    const end = hash < 0 ? out.length : hash;
    out = out.slice(0, q + 1) + maskQuery(out.slice(q + 1, end)) + out.slice(end);
  }
  return maskSecrets(out, secrets);
}

/**
 * Secrets this short are masked only where they stand alone: as substrings they would turn
 * "Invalid API key" into "Invalid API ***ey" for a key `k`, and every `1` of a URL into `***`.
 */
const SHORT_SECRET = 8;

/** Replaces every occurrence of each secret (and its URL-encoded form) with `***`. */
export function maskSecrets(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) {
      if (form.length >= SHORT_SECRET) out = out.split(form).join(MASK);
      else out = out.replace(standingAlone(form), MASK);
    }
  }
  return out;
}

/** `text` where neither neighbour could be part of the same token. */
function standingAlone(text: string): RegExp {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  // A "." joins tokens only between letters or digits (a host, a version); "key abc." ends one.
  const before = String.raw`(?<![A-Za-z0-9_~%-]|[A-Za-z0-9]\.)`;
  const after = String.raw`(?![A-Za-z0-9_~%-]|\.[A-Za-z0-9])`;
  return new RegExp(`${before}${escaped}${after}`, "g");
}
