/**
 * The CSV writer's cell (server/http/csv.ts): read back by a CSV parser it is the neutralised text; split
 * by a spreadsheet on ',' or on ';' (Excel in Spanish), with or without regard to quotes, no piece starts a
 * formula; and the CSV import's restoreNeutralised gives back the very text.
 */
import fc from "fast-check";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { csvCell, neutralise, restoreNeutralised } from "../../server/http/csv";

const FORMULA_START = /^[=+\-@\t\r]/;
/** A cell as a spreadsheet would see it: leading spaces and quote marks are no protection. */
const startsFormula = (cell: string) => FORMULA_START.test(cell.replace(/^[ "]*/, ""));
const cellsOf = (line: string, delimiter: string) =>
  (Papa.parse<string[]>(line, { delimiter, newline: "\r\n", quoteChar: '"' }).data as string[][]).flat();

function expectSafe(text: string) {
  const cell = csvCell(text);
  // A CSV reader (',' and quotes, as written) reads the neutralised text, one cell.
  expect(cellsOf(`${cell},x`, ",")).toEqual([neutralise(text), "x"]);
  // Excel in Spanish (';'), a tab-separated reading, and a reader that ignores quotes altogether.
  for (const delimiter of [";", "\t"]) {
    for (const piece of cellsOf(`x${delimiter}${cell}${delimiter}x`, delimiter)) expect(startsFormula(piece), piece).toBe(false);
  }
  for (const piece of `x,${cell},x`.split(/[,;\t\r\n]/)) expect(startsFormula(piece), JSON.stringify(piece)).toBe(false);
  expect(restoreNeutralised(neutralise(text))).toBe(text);
}

describe("csvCell", () => {
  it("writes each kind of cell", () => {
    expect(
      [
        "",
        "a",
        "PRY-001",
        "2031-03-17",
        "-3",
        " a",
        "a ",
        'di "hola"',
        "a,b",
        "a;b",
        "l1\r\nl2",
        "=1+1",
        "+52 55",
        "@x",
        "\tx",
        "'=ya",
        "'hola",
        "Revisión;=2+3;@SUM(9*9)",
        "a, -1; +2",
        "x;\r\n=1",
        "a; \t=1",
        'a;"=1',
        "medio = igual",
      ].map(csvCell),
    ).toEqual([
      "",
      "a",
      "PRY-001",
      "2031-03-17",
      `"'-3"`,
      '" a"',
      '"a "',
      '"di ""hola"""',
      '"a,b"',
      '"a;b"',
      '"l1\r\nl2"',
      `"'=1+1"`,
      `"'+52 55"`,
      `"'@x"`,
      `"'\tx"`,
      `"''=ya"`,
      "'hola",
      `"Revisión;'=2+3;'@SUM(9*9)"`,
      `"a, '-1; '+2"`,
      `"x;'\r\n'=1"`,
      `"a; '\t'=1"`,
      `"a;""'=1"`,
      "medio = igual",
    ]);
  });

  it("no formula after a separator of either kind; read back exactly", () => {
    for (const text of ["Revisión;=2+3;@SUM(9*9)", "a,=1", "a;;=1", "=a;=b,=c\t=d\n=e\r=f", "';'=x", ' ; " =1']) {
      expectSafe(text);
    }
  });

  it("holds for any text", () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom("a", " ", '"', ",", ";", "\n", "\r", "=", "+", "-", "@", "\t", "'", "\uFEFF", "ñ"),
        }),
        (text) => expectSafe(text),
      ),
      { numRuns: 3000, seed: 10 },
    );
  });
});
