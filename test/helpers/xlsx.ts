// A minimal Excel workbook (xlsx) in memory, for the tests of files CMS publishes as workbooks
// (the NCCI add-on code edits): one sheet, strings shared, cells of digits written as numbers
// (as Excel holds them; a code such as 01953 loses its zero there, as it does in a real file).
import { zipOf } from "./cms-server.js";

const esc = (s: string) =>
  s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
const column = (i: number): string =>
  (i >= 26 ? column(Math.floor(i / 26) - 1) : "") + String.fromCharCode(65 + (i % 26));

/** An xlsx whose first sheet holds the rows (numbers for cells of digits, shared strings else). */
export async function workbookOf(rows: string[][], sheetName = "Sheet1"): Promise<Buffer> {
  const strings: string[] = [];
  const sheetRows = rows.map((row, r) => {
    const cells = row
      .map((value, c) => {
        const ref = `${column(c)}${r + 1}`;
        if (value === "") return "";
        if (/^\d+$/.test(value)) return `<c r="${ref}"><v>${Number(value)}</v></c>`;
        strings.push(value);
        return `<c r="${ref}" t="s"><v>${strings.length - 1}</v></c>`;
      })
      .join("");
    return `<row r="${r + 1}">${cells}</row>`;
  });
  const xml = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
  const main = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
  const rel = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
  return zipOf([
    [
      "[Content_Types].xml",
      Buffer.from(
        `${xml}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>`,
      ),
    ],
    [
      "xl/workbook.xml",
      Buffer.from(
        `${xml}<workbook ${main} ${rel}><sheets><sheet name="${esc(sheetName)}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      ),
    ],
    [
      "xl/_rels/workbook.xml.rels",
      Buffer.from(
        `${xml}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId2" Type="sharedStrings" Target="sharedStrings.xml"/><Relationship Id="rId1" Type="worksheet" Target="worksheets/sheet1.xml"/></Relationships>`,
      ),
    ],
    [
      "xl/sharedStrings.xml",
      Buffer.from(
        `${xml}<sst ${main} count="${strings.length}">${strings.map((s) => `<si><t xml:space="preserve">${esc(s)}</t></si>`).join("")}</sst>`,
      ),
    ],
    [
      "xl/worksheets/sheet1.xml",
      Buffer.from(
        `${xml}<worksheet ${main}><sheetData>${sheetRows.join("")}</sheetData></worksheet>`,
      ),
    ],
  ]);
}
