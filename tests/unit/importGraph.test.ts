/**
 * The code's import graph (src and server, dynamic imports included) has no circle: a circle means two
 * modules that cannot be understood, loaded or tested one without the other. Read from the sources, so a
 * new file is checked too. (src/timesheet's own layers: timesheetLayers.test.ts.)
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
