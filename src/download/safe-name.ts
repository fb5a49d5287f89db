import { stripControls } from "../domain/terminal-text.js";

const EXTENSIONS: Record<string, string> = {
  "application/pdf": ".pdf",
  "text/html": ".html",
  "text/markdown": ".md",
};

// C0/C1 controls, DEL, and bidi overrides that could disguise a name on screen.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// Characters Windows refuses in names; harmless elsewhere, so refused everywhere.
const RESERVED_CHARS = /[<>:"|?*]/g;
const RESERVED_NAMES = /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i;
const MAX_BYTES = 200;

/** A fallback name when the server's is unusable: `download` plus the content type's extension. */
export function makeFallbackName(contentType: string | undefined): string {
  return `download${EXTENSIONS[contentType ?? ""] ?? ""}`;
}

function truncate(name: string): string {
  if (Buffer.byteLength(name) <= MAX_BYTES) return name;
  const dot = name.lastIndexOf(".");
  const ext = dot > 0 && name.length - dot <= 10 ? name.slice(dot) : "";
  let stem = [...name.slice(0, name.length - ext.length)];
  while (stem.length && Buffer.byteLength(stem.join("") + ext) > MAX_BYTES)
    stem = stem.slice(0, -1);
  return stem.join("") + ext;
}

/**
 * The server's suggested filename reduced to a safe base name: no folders (the last `/` or `\`
 * segment only), no control characters or escape sequences, no leading dots (so no `..` and no hidden files), no
 * characters or device names Windows refuses, at most 200 bytes; never empty.
 */
export function safeBaseName(suggested: string, contentType?: string): string {
  // Whole escape sequences first (so `ESC[31m` leaves nothing behind), then stray controls.
  const last = stripControls(suggested).replace(UNSAFE, "").split(/[/\\]/).pop() ?? "";
  const name = truncate(
    last
      .replace(RESERVED_CHARS, "_")
      .trim()
      .replace(/^[.\s]+/, "")
      .replace(/[.\s]+$/, ""),
  );
  if (!name) return makeFallbackName(contentType);
  return RESERVED_NAMES.test(name) ? `_${name}` : name;
}
