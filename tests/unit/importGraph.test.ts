/**
 * The code's import graph (src and server, dynamic imports included) has no circle: a circle means two
 * modules that cannot be understood, loaded or tested one without the other. Read from the sources, so a
 * new file is checked too. (src/timesheet's own layers: timesheetLayers.test.ts.) And a server module is
 * used by others only through its public file, server/modules/<name>/index.ts: its other files can change
 * without reading who else depends on them.
 *
 * The browser calls the API one way, through the data provider (AGENTS.md, «Calling the API from a
 * screen»): it is the lower layer, so it imports no screen; nothing else opens a request; and a screen
 * reaches its verbs through react-admin's `useDataProvider`, never by importing them.
 */
import { readdirSync, readFileSync } from "node:fs";
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

const DATA_PROVIDER = path.join(ROOT, "src/dataProvider");
const SCREENS = [path.join(ROOT, "src/admin"), path.join(ROOT, "src/timesheet")];
const inside = (dir: string, file: string) => !path.relative(dir, file).startsWith("..");
const relative = (file: string) => path.relative(ROOT, file);

/** A request the browser opens by itself, bypassing the data provider's one HTTP client (http.ts). */
const RAW_CALL = /\bfetch\s*\(|new\s+XMLHttpRequest\b|new\s+EventSource\b|\bsendBeacon\s*\(/;

/**
 * The values a screen may import from the data provider (types it may import from any of its files), and
 * why each is no way around it. Everything else a screen gets from `useDataProvider<SiaDataProvider>()`.
 */
const SCREEN_MAY_IMPORT: Record<string, string> = {
  dataProvider: "the object itself: <Admin> is given it, and the timesheet's prefetch reads before React mounts",
  provideFieldLabels: "the app hands the data provider the screens' field labels at start",
  listen: "hears what the data layer asks of the screens (a toast per refused field); it calls nothing",
  validationFromBody: "reads a refusal's body the screen already holds",
  ImportCallError: "a refusal the timesheet tells apart with instanceof",
  HolidayImportError: "a refusal the holiday import tells apart with instanceof",
  ACTIVITIES_CSV_FORMAT_URL: "a link's href: the browser navigates to it, nothing fetches",
};

/** `import`/`export … from` statements (and import()) of a file's text whose source is relative, with what they name. */
function importStatements(file: string, text: string) {
  return [...text.matchAll(/(import|export)\s+(type\s+)?([^;]*?)\s*from\s+"(\.[^"]+)"|import\(\s*"(\.[^"]+)"\s*\)/g)].map(
    (m) => ({
      target: resolveImport(file, m[4] ?? m[5]),
      typeOnly: Boolean(m[2]),
      // A default, namespace or dynamic import takes the module whole: it is read as a value named "*".
      values: m[5]
        ? ["*"]
        : /^\{[^}]*\}$/s.test(m[3].trim())
          ? m[3]
              .trim()
              .slice(1, -1)
              .split(",")
              .map((name) => name.trim())
              .filter((name) => name && !name.startsWith("type "))
              .map((name) => name.split(/\s+as\s+/)[0])
          : ["*"],
    }),
  );
}

/** What a screen file takes from the data provider that is not a type nor in SCREEN_MAY_IMPORT. */
function verbsImportedBy(file: string, text = readFileSync(file, "utf8")): string[] {
  const wrong: string[] = [];
  for (const { target, typeOnly, values } of importStatements(file, text)) {
    if (!target || !inside(DATA_PROVIDER, target) || typeOnly) continue;
    const fromIndex = target === path.join(DATA_PROVIDER, "index.ts");
    for (const name of values) {
      if (!fromIndex || !(name in SCREEN_MAY_IMPORT)) wrong.push(`${relative(file)} → ${name} from ${relative(target)}`);
    }
  }
  return wrong;
}

describe("the browser's one way to the API", () => {
  it("the data provider imports nothing from the screens (src/admin, src/timesheet)", () => {
    const upward = sourceFiles(DATA_PROVIDER).flatMap((file) =>
      importsOf(file)
        .filter((target) => SCREENS.some((dir) => inside(dir, target)))
        .map((target) => `${relative(file)} → ${relative(target)}`),
    );
    expect(upward).toEqual([]);
  });

  it("no browser file but the data provider's opens a request (fetch, XMLHttpRequest, EventSource, sendBeacon)", () => {
    // public/ holds the service worker (sw.js), which runs outside the page: checked too, it has no reason to call.
    const publicDir = path.join(ROOT, "public");
    const publicScripts = readdirSync(publicDir)
      .filter((name) => name.endsWith(".js"))
      .map((name) => path.join(publicDir, name));
    const browser = [...sourceFiles(path.join(ROOT, "src")), ...publicScripts].filter((file) => !inside(DATA_PROVIDER, file));
    expect(browser.filter((file) => RAW_CALL.test(readFileSync(file, "utf8"))).map(relative)).toEqual([]);
    // The check itself finds each kind of call.
    for (const call of [
      "fetch(url)",
      "window.fetch (url)",
      "new XMLHttpRequest()",
      "new EventSource(u)",
      "navigator.sendBeacon(u)",
    ])
      expect(RAW_CALL.test(call)).toBe(true);
    expect(RAW_CALL.test("refetch()")).toBe(false);
  });

  it("a screen imports from the data provider only types, the object and the plain helpers listed here", () => {
    const screens = SCREENS.flatMap((dir) => sourceFiles(dir));
    expect(screens.flatMap((file) => verbsImportedBy(file))).toEqual([]);
  });

  it("the screens' rule reads every form of import (the check itself works)", () => {
    const screen = path.join(ROOT, "src/admin/pages/IntegrationsPage.tsx");
    const refused = (line: string) => verbsImportedBy(screen, line).map((entry) => entry.split(" → ")[1]);
    // The imports this rule replaced.
    expect(refused('import { type BellNotification, boardApi } from "../../dataProvider/board";')).toEqual([
      "boardApi from src/dataProvider/board.ts",
    ]);
    expect(refused('import { type IntegrationView, integrationVerbs } from "../../dataProvider";')).toEqual([
      "integrationVerbs from src/dataProvider/index.ts",
    ]);
    expect(refused('import { downloadCsv, listQuery } from "../../dataProvider";')).toHaveLength(2);
    expect(refused('import { listen } from "../../dataProvider/events";')).toHaveLength(1);
    expect(refused('import * as api from "../../dataProvider";')).toEqual(["* from src/dataProvider/index.ts"]);
    expect(refused('const m = import("../../dataProvider/board");')).toHaveLength(1);
    // What stays allowed.
    expect(refused('import type { BoardMessage } from "../../dataProvider/board";')).toEqual([]);
    expect(refused('import {\n  type SiaDataProvider,\n  validationFromBody,\n} from "../../dataProvider";')).toEqual([]);
  });
});
