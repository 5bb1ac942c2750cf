/**
 * The timesheet's front end reads as one design: model (pure) ← data ← components ← the page, and no import
 * circle anywhere under src/timesheet. Read from the sources, so a new file is checked too.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../src/timesheet");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : /\.tsx?$/.test(name) ? [full] : [];
  });
}

/** The files of src/timesheet a file imports (type-only imports too: they shape the design as well). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const out: string[] = [];
  for (const match of text.matchAll(/(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"/g)) {
    const base = path.resolve(path.dirname(file), match[1]);
    const candidates = [`${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")];
    const found = candidates.find((c) => {
      try {
        return statSync(c).isFile();
      } catch {
        return false;
      }
    });
    if (found?.startsWith(ROOT)) out.push(found);
  }
  return out;
}

const all = files(ROOT);
const graph = new Map(all.map((f) => [f, importsOf(f)]));
const layer = (file: string) => path.relative(ROOT, file).split(path.sep)[0];

describe("src/timesheet's import graph", () => {
  it("has no circle", () => {
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const visit = (file: string, trail: string[]) => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "open") {
        cycles.push([...trail.slice(trail.indexOf(file)), file].map((f) => path.relative(ROOT, f)).join(" → "));
        return;
      }
      state.set(file, "open");
      for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
      state.set(file, "done");
    };
    for (const file of all) visit(file, []);
    expect(cycles).toEqual([]);
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
