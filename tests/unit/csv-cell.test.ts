/** The CSV writer's own cell escaping (issue 10's fast path) writes exactly what papaparse's unparse writes. */
import fc from "fast-check";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { csvCell } from "../../server/http/csv";

const OPTIONS = { escapeFormulae: /^[=+\-@\t\r]/, newline: "\r\n" } as const;
const papa = (text: string) => Papa.unparse([[text, "x"]], OPTIONS).slice(0, -2);

describe("csvCell", () => {
  it("matches Papa.unparse on tricky cells", () => {
    for (const text of [
      "",
      "a",
      " a",
      "a ",
      'di "hola"',
      "a,b",
      "l1\nl2",
      "l1\r\nl2",
      "=1+1",
      "+52 55",
      "-3",
      "@x",
      "\tx",
      "\rx",
      '="a"',
      "\uFEFFx",
      "ñandú, año",
    ]) {
      expect(csvCell(text), JSON.stringify(text)).toBe(papa(text));
    }
  });

  it("matches Papa.unparse on any text", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("a", " ", '"', ",", "\n", "\r", "=", "+", "-", "@", "\t", "\uFEFF", "ñ") }),
        (text) => {
          expect(csvCell(text)).toBe(papa(text));
        },
      ),
      { numRuns: 2000, seed: 10 },
    );
  });
});
