import { createInterface } from "node:readline";
import type { DatasetCode } from "../../dataset/schema.js";
import { dottedIcd10 } from "./map.js";
import { openTextInput } from "./sources.js";
import { exportTextDecoder } from "./text-decoding.js";

/** Calls `onLine` for each line of a CMS text file (Windows-1252 or UTF-8), as .txt or in its zip. */
async function readLines(
  file: string,
  want: (name: string) => boolean,
  flag: string,
  onLine: (line: string) => void,
): Promise<void> {
  const { stream, close } = await openTextInput(file, want, flag);
  try {
    const lines = createInterface({
      input: stream.pipe(exportTextDecoder(file)),
      crlfDelay: Infinity,
    });
    for await (const line of lines) onLine(line);
  } finally {
    close();
  }
}

// An order-file record: a five-digit order number, the code (7 wide), the header flag 0 or 1.
const ORDER_FRAME = /^\d{5} [0-9A-Z ]{7} [01] /;
// A letter, a digit, then up to five letters or digits (no dots in the order file).
const ICD10CM_CODE = /^[A-Z][0-9][0-9A-Z]{1,5}$/;

/**
 * The ICD-10-CM order file (`icd10cm_order_YYYY.txt`): fixed width, the code in columns 7-13
 * without dots, the long description from column 78. Headers (non-billable codes) included.
 */
export async function readIcd10cmOrder(file: string): Promise<DatasetCode[]> {
  const codes: DatasetCode[] = [];
  await readLines(
    file,
    (name) => /order.*\.txt$/i.test(name),
    "--icd10cm",
    (line) => {
      // The record's frame too, not only a code-shaped word: another text (a README) has words
      // in columns 7-13 that pass for codes (`BUN.DLE`), and would import junk descriptions.
      if (!ORDER_FRAME.test(line)) return;
      const code = line.slice(6, 13).trim();
      const description = line.slice(77).trim();
      if (ICD10CM_CODE.test(code) && description)
        codes.push({ code_system: "ICD10CM", code: dottedIcd10(code), description });
    },
  );
  return codes;
}

// A letter then four digits: never CPT-shaped (five digits, or four and F/T/U), whose
// descriptions are the AMA's.
const HCPCS_LEVEL_II = /^[A-Z][0-9]{4}$/;
const HCPCS_MODIFIER = /^[0-9A-Z]{2}$/;

/**
 * The HCPCS Level II ANWEB file (`HCPC<YYYY>_<MON>_ANWEB.txt`): record type in column 11
 * (`3` a code's first line, `4` its continuation; `7`/`8` the same for modifiers), the code
 * in columns 1-5, the long description in 12-91. Continuations are joined to their first
 * line. Codes that are CPT by their shape are never taken (their descriptions are the AMA's).
 */
export async function readHcpcsAnweb(file: string): Promise<DatasetCode[]> {
  const codes: DatasetCode[] = [];
  let last: DatasetCode | undefined;
  await readLines(
    file,
    (name) => /anweb.*\.txt$/i.test(name),
    "--hcpcs",
    (line) => {
      const type = line.charAt(10);
      const code = line.slice(0, 5).trim().toUpperCase();
      const text = line.slice(11, 91).trim();
      if (type === "3" || type === "7") {
        last = undefined;
        // Shapes too, not only the record type: another file's lines (the ICD-10-CM order
        // file's, whose column 11 is a digit of a sequence number) must not pass for codes.
        const system =
          type === "7"
            ? HCPCS_MODIFIER.test(code)
              ? "HCPCS_MODIFIER"
              : null
            : HCPCS_LEVEL_II.test(code)
              ? "HCPCS"
              : null;
        if (!system) return;
        last = { code_system: system, code, description: text };
        codes.push(last);
      } else if (
        (type === "4" || type === "8") &&
        last &&
        (code === "" || last.code === code) &&
        text
      )
        last.description = `${last.description} ${text}`.trim();
    },
  );
  return codes;
}
