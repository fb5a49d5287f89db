// The add-on code workbook's reading: the sheet's cells as records (shared, inline and rich
// strings, numbers, cells left out), and CMS's Julian dates.
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { aocDate } from "../../../src/import/medicare/rows.js";
import { readSheetRecords } from "../../../src/import/medicare/sheet.js";
import { zipOf } from "../../helpers/cms-server.js";

const main = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';

async function workbook(sheetXml: string, strings: string, sheetPath = "worksheets/sheet1.xml") {
  return zipOf([
    [
      "xl/workbook.xml",
      Buffer.from(
        `<workbook ${main} xmlns:r="r"><sheets><sheet name="AOC" sheetId="1" r:id="rId3"/></sheets></workbook>`,
      ),
    ],
    [
      "xl/_rels/workbook.xml.rels",
      Buffer.from(
        `<Relationships><Relationship Id="rId3" Type="worksheet" Target="${sheetPath}"/></Relationships>`,
      ),
    ],
    ["xl/sharedStrings.xml", Buffer.from(`<sst ${main}>${strings}</sst>`)],
    [
      `xl/${sheetPath}`,
      Buffer.from(`<worksheet ${main}><sheetData>${sheetXml}</sheetData></worksheet>`),
    ],
  ]);
}

describe("readSheetRecords", () => {
  it("reads shared, rich and inline strings and numbers, placing cells by their reference", async () => {
    const buffer = await workbook(
      '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="C1" t="s"><v>1</v></c></row>' +
        '<row r="2"><c r="B2"><v>2026091</v></c><c r="D2" t="inlineStr"><is><t>CCCCC</t></is></c></row>' +
        '<row r="3"><c r="AA3" t="str"><v>x &amp; y</v></c></row>',
      '<si><t xml:space="preserve"> AOC_Edit_Type</t></si><si><r><t>Add-On</t></r><r><t>_Code</t></r></si>',
      "worksheets/second.xml",
    );
    const records = await readSheetRecords(Readable.from([buffer]), "test.xlsx");
    expect(records[0]).toEqual([" AOC_Edit_Type", "", "Add-On_Code"]);
    expect(records[1]).toEqual(["", "2026091", "", "CCCCC"]);
    expect(records[2]?.[26]).toBe("x & y");
    expect(records[2]).toHaveLength(27);
  });

  it("refuses what is not a workbook (exit 2's error, naming the file)", async () => {
    await expect(
      readSheetRecords(Readable.from([Buffer.from("AOC_Edit_Type,Add-On_Code\n")]), "a.xlsx"),
    ).rejects.toThrow(/a\.xlsx: not a readable Excel workbook/);
  });
});

describe("aocDate", () => {
  it.each([
    ["2026091", "2026-04-01"],
    ["2026001", "2026-01-01"],
    ["2024366", "2024-12-31"], // a leap year's last day
    ["20260401", "2026-04-01"],
    ["2026-04-01", "2026-04-01"],
    ["", null],
    ["*", null],
    ["2023366", undefined], // no 366th day in 2023
    ["2026000", undefined],
    ["26091", undefined],
  ])("%s is %s", (cell, date) => {
    expect(aocDate(cell)).toBe(date);
  });
});
