/**
 * Comments say why the code is as it is, not which ticket asked for it: a ticket number tells the next reader
 * nothing once the tracker is gone. The reason belongs in the comment, or in a decision record.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "../support/import-graph";

const ROOT = path.resolve(import.meta.dirname, "../..");
const TICKET = /\b[Ii]ssues? #?\d+/;

describe("comments", () => {
  it("name no issue number", () => {
    const files = ["src", "server", "tests", "bench"].flatMap((dir) => sourceFiles(path.join(ROOT, dir)));
    const found = files.flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .flatMap((line, i) => (TICKET.test(line) ? [`${path.relative(ROOT, file)}:${i + 1}`] : [])),
    );
    expect(found).toEqual([]);
  });
});
