/**
 * `npm start`: builds what is out of date, then starts the compiled server (with `--build-only`, only builds).
 *
 * - The browser app (vite build → dist/) when its sources are newer than dist/index.html.
 * - The server (esbuild → build/server/, one ES module bundle of server/ and src/core with the packages
 *   left as imports) when one of the files the last build read is newer than it, or it is missing.
 *
 * The server then runs as plain JavaScript: no TypeScript compiler at start (docs/decisions/019).
 * Plain JavaScript itself so that nothing has to be compiled to run it.
 *
 * A build it cannot do is one Spanish line, never a stack trace: a folder it may not write (the service's
 * read-only code, deploy/sia.service) exits with CANNOT_BUILD, which the unit does not restart on.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const root = path.resolve(import.meta.dirname, "..");
const at = (...parts) => path.join(root, ...parts);

/** Newest modification time under a file or folder (0 when missing). */
function newestMtime(entry) {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestMtime(path.join(entry, child)));
  return newest;
}

const builtAt = (file) => fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0;

/** EX_CONFIG: restarting will not help (deploy/sia.service's RestartPreventExitStatus names it). */
const CANNOT_BUILD = 78;

function fail(message, code = 1) {
  console.error(message);
  process.exit(code);
}

/**
 * Before building into `dir`: a file can be made there (or, while it is missing, in the folder it would be
 * made in). Else esbuild and vite would each fail file by file, and the service would restart for ever.
 */
function mustBeWritable(dir) {
  let existing = dir;
  while (!fs.existsSync(existing)) existing = path.dirname(existing);
  const probe = path.join(existing, `.sia-write-probe-${process.pid}`);
  try {
    fs.writeFileSync(probe, "");
    fs.rmSync(probe, { force: true });
  } catch (error) {
    if (!["EROFS", "EACCES", "EPERM"].includes(error.code)) {
      fail(`No se puede escribir la compilación en ${existing}: ${error.message}`);
    }
    fail(
      "La compilación está desactualizada y esta carpeta es de solo lectura: ejecute `node scripts/start.mjs --build-only` (como el dueño del código) y vuelva a arrancar.",
      CANNOT_BUILD,
    );
  }
}

async function buildUi() {
  const index = at("dist", "index.html");
  const sources = ["src", "index.html", "vite.config.ts", "CHANGELOG.md", "package.json"].map((p) => at(p));
  const built = builtAt(index);
  if (built && Math.max(...sources.map(newestMtime)) <= built) return false;
  mustBeWritable(at("dist"));
  console.log("Compilando la interfaz (vite build)…");
  // In a process of its own: the server does not keep the build's memory.
  const vite = spawnSync(process.execPath, [at("node_modules", "vite", "bin", "vite.js"), "build", "--logLevel", "warn"], {
    cwd: root,
    stdio: "inherit",
  });
  // vite has printed its error above.
  if (vite.status !== 0) fail("No se pudo compilar la interfaz (vite build): su error está arriba.");
  return true;
}

const SERVER_OUT = at("build", "server");
const SERVER_ENTRY = path.join(SERVER_OUT, "main.js");
/** The files the last server build read (esbuild's metafile), with package.json and the lock file. */
const SERVER_INPUTS = path.join(SERVER_OUT, "inputs.json");

function serverIsCurrent() {
  const built = builtAt(SERVER_ENTRY);
  if (!built || !fs.existsSync(SERVER_INPUTS)) return false;
  const inputs = JSON.parse(fs.readFileSync(SERVER_INPUTS, "utf8"));
  return inputs.every((file) => {
    const stat = fs.statSync(at(file), { throwIfNoEntry: false });
    return stat && stat.mtimeMs <= built;
  });
}

export async function buildServer({ quiet = false } = {}) {
  if (serverIsCurrent()) return false;
  // The build is written beside build/server, then moved in: build/ is the folder that must take files.
  mustBeWritable(path.dirname(SERVER_OUT));
  if (!quiet) console.log("Compilando el servidor (esbuild)…");
  const esbuild = await import("esbuild");
  // Built aside, then moved in place: two servers starting at once never read a half-written build.
  const aside = `${SERVER_OUT}.${process.pid}`;
  fs.rmSync(aside, { recursive: true, force: true });
  const result = await esbuild
    .build({
      absWorkingDir: root,
      // The .ics reader's worker thread is a file of its own (server/ports/calendar/icsPool.ts finds it beside main.js).
      entryPoints: { main: "server/main.ts", "ics-worker": "server/ports/calendar/icsWorker.ts" },
      outdir: aside,
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "node",
      target: "node20",
      packages: "external",
      sourcemap: "linked",
      chunkNames: "chunks/[name]-[hash]",
      metafile: true,
      logLevel: "silent",
    })
    .catch((error) => {
      // One line: the first of esbuild's errors, where it is (esbuild printed none: logLevel "silent").
      const first = error.errors?.[0];
      const where = first?.location ? ` (${first.location.file}:${first.location.line})` : "";
      fail(`No se pudo compilar el servidor (esbuild): ${first ? `${first.text}${where}` : error.message}`);
    });
  if (result.warnings.length) {
    for (const line of await esbuild.formatMessages(result.warnings, { kind: "warning" })) console.warn(line);
  }
  const inputs = [...Object.keys(result.metafile.inputs), "package.json", "package-lock.json", "tsconfig.json"];
  fs.writeFileSync(path.join(aside, "inputs.json"), JSON.stringify(inputs.filter((f) => fs.existsSync(at(f)))));
  fs.rmSync(SERVER_OUT, { recursive: true, force: true });
  try {
    fs.renameSync(aside, SERVER_OUT);
  } catch {
    // Another start moved its build in first: same sources, same build.
    fs.rmSync(aside, { recursive: true, force: true });
  }
  return true;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const ui = await buildUi();
  const server = await buildServer();
  // `--build-only`: an installation whose service may not write its own code (deploy/sia.service) builds
  // after each update, as the code's owner, and the service then finds everything current.
  if (process.argv.includes("--build-only")) {
    const built = [ui && "la interfaz (dist/)", server && "el servidor (build/server/)"].filter(Boolean);
    console.log(built.length ? `Compilado: ${built.join(" y ")}.` : "La compilación ya está al día.");
  } else {
    const { main, exitWithError } = await import(pathToFileURL(SERVER_ENTRY).href);
    await main().catch(exitWithError);
  }
}
