/** The decision records keep their index and their status lines (docs/decisions/README.md). */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const DIR = path.resolve(import.meta.dirname, "../../docs/decisions");
const records = readdirSync(DIR).filter((f) => /^\d{3}-.+\.md$/.test(f));

describe("decision records", () => {
  it("each has a status line with its version, and the index lists it", () => {
    const index = readFileSync(path.join(DIR, "README.md"), "utf8");
    const wrong = records.filter((file) => {
      const text = readFileSync(path.join(DIR, file), "utf8");
      return !/^Status: (accepted|superseded|proposed)[^\n]*\(\d+\.\d+\.\d+\)/m.test(text) || !index.includes(`](${file})`);
    });
    expect(records.length).toBeGreaterThan(25);
    expect(wrong).toEqual([]);
  });

  it("numbers are not reused", () => {
    const numbers = records.map((f) => f.slice(0, 3));
    expect(new Set(numbers).size).toBe(numbers.length);
  });
});
