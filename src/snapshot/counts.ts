import type { CountArray } from "../engine/text-index.js";
import { UsageError } from "../errors.js";

/**
 * Non-negative integers as the narrowest array that holds them (one, two or four bytes each):
 * term counts and lengths are mostly under 256, and a query reads them by the megabyte.
 */
export function narrowCounts(values: ArrayLike<number>): CountArray {
  let max = 0;
  for (let i = 0; i < values.length; i++)
    if ((values[i] as number) > max) max = values[i] as number;
  if (max < 2 ** 8) return Uint8Array.from(values);
  if (max < 2 ** 16) return Uint16Array.from(values);
  return Int32Array.from(values);
}

/** The bytes of a typed array, for a blob (little-endian, as the machines that read them). */
export function bytesOf(a: CountArray | Int32Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/**
 * `n` counts stored by narrowCounts: their width is the blob's length over `n`. A blob of any
 * other length is a damaged snapshot (exit 2), never read as other numbers.
 */
export function readCounts(blob: unknown, n: number): CountArray {
  if (n === 0) return new Int32Array(0);
  const width = blob instanceof Uint8Array ? blob.byteLength / n : 0;
  if (!(blob instanceof Uint8Array) || !(width === 1 || width === 2 || width === 4))
    throw new UsageError(
      `the snapshot is damaged: an array of ${n} counts is stored in ${blob instanceof Uint8Array ? blob.byteLength : 0} bytes`,
      "Rebuild it with `coverage data build DATASET.json -o SNAPSHOT.db --force`.",
    );
  // A copy where the bytes are not aligned for the width (node:sqlite gives each blob its own
  // buffer, so they are).
  const bytes = blob.byteOffset % 4 === 0 ? blob : new Uint8Array(blob);
  if (width === 1) return bytes;
  if (width === 2) return new Uint16Array(bytes.buffer, bytes.byteOffset, n);
  return new Int32Array(bytes.buffer, bytes.byteOffset, n);
}
