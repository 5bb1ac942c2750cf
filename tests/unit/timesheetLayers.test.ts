/**
 * The timesheet's front end reads as one design: model (pure) ← data ← components ← the page, and no import
 * circle anywhere under src/timesheet. Read from the sources, so a new file is checked too.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { importsOf as allImportsOf, findCycles, sourceFiles } from "../support/import-graph";

const ROOT = path.resolve(import.meta.dirname, "../../src/timesheet");
/** The files of src/timesheet a file imports statically (the page's chunk is prefetched by import()). */
const importsOf = (file: string) => allImportsOf(file, { dynamic: false }).filter((f) => f.startsWith(ROOT));

const all = sourceFiles(ROOT);
const graph = new Map(all.map((f) => [f, importsOf(f)]));
const layer = (file: string) => path.relative(ROOT, file).split(path.sep)[0];

describe("src/timesheet's import graph", () => {
  it("has no circle", () => {
    expect(findCycles(graph, ROOT)).toEqual([]);
  });

  it("keeps its layers: model imports nothing above it, data no component, components not the page", () => {
    const wrong: string[] = [];
    const allowed: Record<string, string[]> = {
      model: ["model"],
      data: ["model", "data"],
      components: ["model", "data", "components"],
    };
    for (const [file, imports] of graph) {
      const from = layer(file);
      for (const target of imports) {
        const to = layer(target);
        if (allowed[from] && !allowed[from].includes(to))
          wrong.push(`${path.relative(ROOT, file)} → ${path.relative(ROOT, target)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it("has one data path: no component reads the server but through ./data or a dialog's own lookups", () => {
    const direct = all.filter((f) => layer(f) === "model" && /useDataProvider|apiFetch|fetch\(/.test(readFileSync(f, "utf8")));
    expect(direct.map((f) => path.relative(ROOT, f))).toEqual([]);
  });
});
