/**
 * scripts/start.mjs's builds, run for real on a copy of the script in a folder of its own (its root is the
 * folder above the script): up to date it says so, a build it cannot write (the service's read-only code,
 * deploy/sia.service) is one Spanish line and the exit code the unit does not restart on, and a failed
 * build is one line with esbuild's first error, never a stack trace.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const READ_ONLY =
  "La compilación está desactualizada y esta carpeta es de solo lectura: ejecute `node scripts/start.mjs --build-only` (como el dueño del código) y vuelva a arrancar.";

let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

/** A root with start.mjs, the packages, and the given files; the interface already built unless `ui`. */
function project(files: Record<string, string>, { ui = false } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sia-start-"));
  dirs.push(dir);
  fs.mkdirSync(path.join(dir, "scripts"));
  fs.copyFileSync(path.join(ROOT, "scripts", "start.mjs"), path.join(dir, "scripts", "start.mjs"));
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  // Its sources are absent here: a dist/index.html of any age counts as current.
  if (!ui) files = { "dist/index.html": "<!doctype html>", ...files };
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

const start = (dir: string, args: string[] = []) =>
  spawnSync(process.execPath, [path.join(dir, "scripts", "start.mjs"), ...args], { cwd: dir, encoding: "utf8" });

const SERVER = {
  "server/main.ts": "export const main = async (): Promise<void> => {};\n",
  "server/ports/calendar/icsWorker.ts": "export {};\n",
};

describe("scripts/start.mjs --build-only", () => {
  it("says what it built, then that all is up to date", () => {
    const dir = project(SERVER);
    const first = start(dir, ["--build-only"]);
    expect(first.stderr).toBe("");
    expect(first.status).toBe(0);
    expect(first.stdout).toBe("Compilando el servidor (esbuild)…\nCompilado: el servidor (build/server/).\n");
    expect(fs.existsSync(path.join(dir, "build", "server", "main.js"))).toBe(true);
    const again = start(dir, ["--build-only"]);
    expect(again.status).toBe(0);
    expect(again.stdout).toBe("La compilación ya está al día.\n");
  });

  it("a server that does not compile: one line, esbuild's first error, no stack trace", () => {
    const dir = project({ ...SERVER, "server/main.ts": "export const = ;\nexport const también = ;\n" });
    const result = start(dir, ["--build-only"]);
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^No se pudo compilar el servidor \(esbuild\): .+ \(server\/main\.ts:1\)$/);
  });
});

/** unshare -m works here (root, or a container that allows it): the tester's read-only bind mount. */
const CAN_UNSHARE = spawnSync("unshare", ["-m", "true"]).status === 0;
if (!CAN_UNSHARE) console.warn("start-build.test.ts: unshare -m no está disponible; no se prueba la carpeta de solo lectura");

/** start.mjs with its folder remounted read-only, in a mount namespace of its own. */
function startReadOnly(dir: string) {
  const script = `mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && exec "$2" "$1/scripts/start.mjs"`;
  return spawnSync("unshare", ["-m", "sh", "-c", script, "sh", dir, process.execPath], { cwd: os.tmpdir(), encoding: "utf8" });
}

describe("scripts/start.mjs in read-only code (deploy/sia.service)", () => {
  it.skipIf(!CAN_UNSHARE)("an out-of-date server: one line, exit 78, nothing built", () => {
    const dir = project(SERVER);
    const result = startReadOnly(dir);
    expect(result.stderr.trim()).toBe(READ_ONLY);
    expect(result.stdout).toBe("");
    expect(result.status).toBe(78);
  });

  it.skipIf(!CAN_UNSHARE)("an out-of-date interface: the same", () => {
    const dir = project(SERVER, { ui: true });
    const result = startReadOnly(dir);
    expect(result.stderr.trim()).toBe(READ_ONLY);
    expect(result.status).toBe(78);
  });
});
