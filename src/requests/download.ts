import type { DownloadVariant } from "../contract/index.js";

/** `--text` asks for the markdown version; otherwise the original file (`variant=display`). */
export function downloadVariant(flags: { text?: boolean }): DownloadVariant {
  return flags.text ? "text" : "display";
}
