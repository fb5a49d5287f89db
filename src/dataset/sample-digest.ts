import { readFileSync } from "node:fs";
import { crc32 } from "../crc32.js";

/**
 * The bundled sample as the build checked it. The build (scripts/make-code-cache.mjs) runs a
 * search over the sample, which checks the whole file against the dataset format, and only
 * then writes the file's length and CRC-32 to dist/sample-digest.json. A start whose sample
 * has those same bytes can skip the format check: it would check what the build checked, and
 * on a 25 ms search it was ~1.5 ms. Any other bytes, or no digest (a source checkout before
 * its first build), get the full check. A guard against mishaps (an edited sample), not
 * against whoever can write the package's own files.
 */
export interface SampleDigest {
  size: number;
  crc32: number;
}

/** Whether `bytes` are the sample the build checked, per the digest in `digestFile`. */
export function isCheckedSample(bytes: Uint8Array, digestFile: string): boolean {
  let digest: unknown;
  try {
    digest = JSON.parse(readFileSync(digestFile, "utf8"));
  } catch {
    return false;
  }
  // Anything but the object the build writes (`null`, a number) is no digest either.
  if (typeof digest !== "object" || digest === null) return false;
  const { size, crc32: crc } = digest as Partial<SampleDigest>;
  return size === bytes.length && crc === crc32(bytes);
}
