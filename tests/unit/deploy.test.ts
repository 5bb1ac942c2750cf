/**
 * The systemd sample (deploy/sia.service) and its environment file (deploy/sia.env): systemd itself checks
 * the unit when `systemd-analyze` is installed; the unit starts a file this repository has, stops the way
 * the server expects, and the two files together are a configuration the server accepts in production.
 * The nginx sample is run for real by tests/reliability/proxy.test.ts.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../server/config";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const UNIT = path.join(ROOT, "deploy", "sia.service");
const ENV_FILE = path.join(ROOT, "deploy", "sia.env");

/** The unit's settings by section, each key with every value it is given (Environment= repeats). */
function parseUnit(text: string) {
  const sections = new Map<string, Map<string, string[]>>();
  let current: Map<string, string[]> | undefined;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#") || line.startsWith(";")) continue;
    const section = /^\[(.+)\]$/.exec(line);
    if (section) {
      current = new Map();
      sections.set(section[1], current);
      continue;
    }
    const at = line.indexOf("=");
    if (!current || at < 0) throw new Error(`línea fuera de sección o sin «=»: ${line}`);
    const key = line.slice(0, at).trim();
    current.set(key, [...(current.get(key) ?? []), line.slice(at + 1).trim()]);
  }
  return sections;
}

const unit = parseUnit(fs.readFileSync(UNIT, "utf8"));
const service = unit.get("Service") ?? new Map<string, string[]>();
const one = (key: string) => service.get(key)?.at(-1);

/** KEY=value lines of an environment file (comments and blank lines skipped). */
function parseEnv(text: string) {
  const env: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const match = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) env[match[1]] = match[2];
  }
  return env;
}

const SYSTEMD_ANALYZE = ["/usr/bin/systemd-analyze", "/bin/systemd-analyze"].find((file) => fs.existsSync(file));
if (!SYSTEMD_ANALYZE) console.warn("deploy.test.ts: systemd-analyze no está instalado; la unidad no se verifica con systemd");

describe("deploy/sia.service", () => {
  it.skipIf(!SYSTEMD_ANALYZE)("systemd-analyze verify la acepta sin avisos", () => {
    let text = fs.readFileSync(UNIT, "utf8");
    // verify checks that the ExecStart binary exists: where node is not /usr/bin/node (nvm, a CI image),
    // this machine's node stands in for it.
    if (!fs.existsSync("/usr/bin/node")) text = text.replaceAll("/usr/bin/node", process.execPath);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sia-unit-"));
    try {
      const file = path.join(dir, "sia.service");
      fs.writeFileSync(file, text);
      const result = spawnSync(SYSTEMD_ANALYZE as string, ["verify", file], { cwd: dir, encoding: "utf8" });
      // An unknown key or a bad value is only a warning (exit code 0): any output at all fails the test.
      expect(`${result.stdout}${result.stderr}`.trim()).toBe("");
      expect(result.status).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("arranca scripts/start.mjs de este repositorio con node, no con npm", () => {
    const exec = (one("ExecStart") ?? "").split(/\s+/);
    expect(exec[0]).toBe("/usr/bin/node");
    const script = exec.slice(1).find((word) => !word.startsWith("-"));
    expect(script).toBe("scripts/start.mjs");
    expect(path.isAbsolute(one("WorkingDirectory") ?? "")).toBe(true);
    expect(fs.existsSync(path.join(ROOT, script as string))).toBe(true);
    // The flag npm start passes, so the service runs node as `npm start` does.
    const npmStart = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts.start as string;
    for (const flag of exec.slice(1).filter((word) => word.startsWith("--"))) expect(npmStart).toContain(flag);
    // The code is read-only to the service: the unit's comment sends the builder to this flag.
    expect(fs.readFileSync(UNIT, "utf8")).toContain("--build-only");
    expect(fs.readFileSync(path.join(ROOT, "scripts", "start.mjs"), "utf8")).toContain('"--build-only"');
  });

  it("se detiene con SIGTERM, que el servidor atiende, y solo el proceso principal lo recibe", () => {
    expect(one("KillSignal")).toBe("SIGTERM");
    expect(one("KillMode")).toBe("mixed");
    expect(fs.readFileSync(path.join(ROOT, "server", "main.ts"), "utf8")).toContain('process.once("SIGTERM"');
    expect(fs.readFileSync(path.join(ROOT, "server", "cluster.ts"), "utf8")).toContain('process.once("SIGTERM"');
    expect(one("Restart")).toBe("on-failure");
  });

  it("no reinicia para siempre un arranque cuya compilación no puede escribir", () => {
    // start.mjs's exit code for a stale build in read-only code: the unit does not restart on it.
    const code = /const CANNOT_BUILD = (\d+);/.exec(fs.readFileSync(path.join(ROOT, "scripts", "start.mjs"), "utf8"))?.[1];
    expect(code).toBeDefined();
    expect((one("RestartPreventExitStatus") ?? "").split(/\s+/)).toContain(code);
  });

  it("corre sin privilegios y solo escribe en DATA_DIR", () => {
    expect(one("User")).toBe("sia");
    expect(one("NoNewPrivileges")).toBe("yes");
    expect(one("ProtectSystem")).toBe("strict");
    expect(one("PrivateTmp")).toBe("yes");
    const dataDir = (service.get("Environment") ?? []).find((e) => e.startsWith("DATA_DIR="))?.slice("DATA_DIR=".length);
    // StateDirectory=sia is /var/lib/sia, made writable (and owned by User=) under ProtectSystem=strict.
    expect(dataDir).toBe(`/var/lib/${one("StateDirectory")}`);
    expect(one("EnvironmentFile")).toBe("/etc/sia/sia.env");
  });

  it("con deploy/sia.env es una configuración de producción que el servidor acepta", () => {
    const env: Record<string, string> = {};
    for (const assignment of service.get("Environment") ?? []) {
      const at = assignment.indexOf("=");
      env[assignment.slice(0, at)] = assignment.slice(at + 1);
    }
    const file = parseEnv(fs.readFileSync(ENV_FILE, "utf8"));
    const config = loadConfig({ ...env, ...file });
    expect(config.NODE_ENV).toBe("production");
    expect(config.HOST).toBe("127.0.0.1");
    expect(config.PUBLIC_URL).toMatch(/^https:\/\//);
    expect(config.TRUST_PROXY_HOPS).toBe(1);
    expect(config.DATABASE_URL).toMatch(/^postgres:\/\//);
    // Every variable the file names, set or commented out, is one README documents.
    const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
    const named = [...fs.readFileSync(ENV_FILE, "utf8").matchAll(/^#?([A-Z_][A-Z0-9_]*)=/gm)].map((m) => m[1]);
    for (const name of named) expect(readme, name).toContain(`| \`${name}\``);
  });
});
