/**
 * The code's import graph (src and server, dynamic imports included) has no circle: a circle means two
 * modules that cannot be understood, loaded or tested one without the other. Read from the sources, so a
 * new file is checked too. (src/timesheet's own layers: timesheetLayers.test.ts.) And a server module is
 * used by others only through its public file, server/modules/<name>/index.ts: its other files can change
 * without reading who else depends on them.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findCycles, importsOf, resolveImport, sourceFiles } from "../support/import-graph";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe("the import graph of src and server", () => {
  it("has no circle", () => {
    const all = [...sourceFiles(path.join(ROOT, "src")), ...sourceFiles(path.join(ROOT, "server"))];
    expect(findCycles(new Map(all.map((f) => [f, importsOf(f)])), ROOT)).toEqual([]);
  });

  it("reaches another server module only through its public file", () => {
    const modules = path.join(ROOT, "server/modules");
    const registry = path.join(modules, "index.ts");
    const moduleOf = (file: string) => {
      const relative = path.relative(modules, file);
      return relative.startsWith("..") || !relative.includes(path.sep) ? null : relative.split(path.sep)[0];
    };
    const importers = [...sourceFiles(path.join(ROOT, "server")), ...sourceFiles(path.join(ROOT, "bench"))];
    const past = importers.flatMap((file) =>
      importsOf(file)
        .filter((target) => {
          const owner = moduleOf(target);
          if (!owner || path.basename(target) === "index.ts") return false;
          // The registry wires each module's resource and routes; a module's own files see each other.
          return file !== registry && moduleOf(file) !== owner;
        })
        .map((target) => `${path.relative(ROOT, file)} → ${path.relative(ROOT, target)}`),
    );
    expect(past).toEqual([]);
  });

  it("finds a circle when there is one (the check itself works)", () => {
    const [a, b, c] = ["/x/a.ts", "/x/b.ts", "/x/c.ts"];
    expect(
      findCycles(
        new Map([
          [a, [b]],
          [b, [c]],
          [c, [a]],
        ]),
        "/x",
      ),
    ).toEqual(["a.ts → b.ts → c.ts → a.ts"]);
    const here = path.join(ROOT, "tests/unit/importGraph.test.ts");
    expect(resolveImport(here, "../../src/core/activity")).toBe(path.join(ROOT, "src/core/activity.ts"));
    expect(importsOf(path.join(ROOT, "src/admin/common/DatePickerInput.tsx"))).toContain(
      path.join(ROOT, "src/admin/common/DatePickerField.tsx"),
    );
  });
});
