/** Compares two strings by Unicode code point (not UTF-16 unit, not locale). */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca === cb) continue;
    // Surrogates (astral code points) sort above the rest of the BMP by code point.
    const sa = ca >= 0xd800 && ca <= 0xdfff;
    const sb = cb >= 0xd800 && cb <= 0xdfff;
    if (sa !== sb) return sa ? 1 : -1;
    return ca - cb;
  }
  return a.length - b.length;
}

/** Case-insensitive comparison, code point order of the lower-cased strings. */
export function compareCaseInsensitive(a: string, b: string): number {
  return compareCodePoints(a.toLowerCase(), b.toLowerCase());
}
