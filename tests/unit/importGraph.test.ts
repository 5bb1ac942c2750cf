/**
 * The code's import graph (src and server, dynamic imports included) has no circle: a circle means two
 * modules that cannot be understood, loaded or tested one without the other. Read from the sources, so a
 * new file is checked too. (src/timesheet's own layers: timesheetLayers.test.ts.)
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : /\.tsx?$/.test(name) ? [full] : [];
  });
}

function resolveImport(file: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(file), spec.replace(/\.js$/, ""));
  return [`${base}.ts`, `${base}.tsx`, path.join(base, "index.ts"), path.join(base, "index.tsx")].find((candidate) => {
    try {
      return statSync(candidate).isFile();
    } catch {
      return false;
    }
  });
}

/** Static imports and re-exports (type-only too: they tie the designs as well) and dynamic import(). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const out: string[] = [];
  for (const match of text.matchAll(/(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"|import\(\s*"(\.[^"]+)"\s*\)/g)) {
    const found = resolveImport(file, match[1] ?? match[2]);
    if (found) out.push(found);
  }
  return out;
}

describe("the import graph of src and server", () => {
  it("has no circle", () => {
    const all = [...files(path.join(ROOT, "src")), ...files(path.join(ROOT, "server"))];
    const graph = new Map(all.map((f) => [f, importsOf(f)]));
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

  it("finds a circle when there is one (the check itself works)", () => {
    const here = path.join(ROOT, "tests/unit/importGraph.test.ts");
    expect(resolveImport(here, "../../src/core/activity")).toBe(path.join(ROOT, "src/core/activity.ts"));
    expect(importsOf(path.join(ROOT, "src/admin/common/DatePickerInput.tsx"))).toContain(
      path.join(ROOT, "src/admin/common/DatePickerField.tsx"),
    );
  });
});
