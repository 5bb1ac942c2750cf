/**
 * «Respaldar ahora» and the archives' list and download (administrators only): a whole backup written by
 * the running app (database, drive/, outbox/, secret.key, manifest), and 401/403/404 for everyone else.
 */
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pruneArchives } from "../../server/cli/backups";
import { readTarGz } from "../../server/cli/tarball";
import { backupMessages, messages } from "../../src/core/messages";
import { buildTestApp, type TestApp } from "../support/app";
import { type ApiClient, call, signInAs } from "../support/factories";
import { startServer } from "../support/server";

let t: TestApp;
let admin: ApiClient;
let operator: ApiClient;
let finance: ApiClient;

beforeAll(async () => {
  t = await buildTestApp();
  admin = (await signInAs(t.app, "admin")).api;
  operator = (await signInAs(t.app, "operator")).api;
  finance = (await signInAs(t.app, "finance")).api;
});
afterAll(async () => {
  await t?.close();
});

/**
 * Runs `body` with the app's BACKUP_DIR naming a file, as a folder broken after the start would: nothing can
 * be made in it, whoever runs the server (root included).
 */
async function withBackupDirAFile(name: string, body: () => Promise<void>) {
  const config = t.app.config as { backupDir: string };
  const kept = config.backupDir;
  const notAFolder = path.join(t.app.config.dataDir, name);
  fs.writeFileSync(notAFolder, "");
  config.backupDir = notAFolder;
  try {
    await body();
  } finally {
    config.backupDir = kept;
  }
}

describe("backups", () => {
  it("signed out: 401; Operador and Finanzas: 403 on every backup route", async () => {
    for (const [method, url] of [
      ["GET", "/api/v1/backups"],
      ["POST", "/api/v1/backups"],
      ["GET", "/api/v1/backups/sia-2026-11-29T03-00-00.tar.gz"],
    ] as const) {
      const anonymous = await call(t.app, method, url);
      expect(anonymous.status, url).toBe(401);
      expect(anonymous.body.error).toBe(messages.unauthenticated);
      for (const client of [operator, finance]) {
        const refused = await client.request(method, url);
        expect(refused.status, url).toBe(403);
        expect(refused.body.error).toBe(messages.forbidden);
      }
    }
    expect(fs.existsSync(t.app.config.backupDir) ? fs.readdirSync(t.app.config.backupDir) : []).toEqual([]);
  });

  it("an administrator backs up now, lists the archive and downloads it whole", async () => {
    const drive = path.join(t.app.config.dataDir, "drive", "Clientes");
    fs.mkdirSync(drive, { recursive: true });
    fs.writeFileSync(path.join(drive, "contrato ñandú.txt"), "contrato firmado");

    const made = await admin.post("/api/v1/backups", {});
    expect(made.status, made.text).toBe(200);
    const name = made.body.backup.name as string;
    // Made by hand: named apart, so that pruning leaves it.
    expect(name).toMatch(/^sia-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-manual\.tar\.gz$/);
    expect(made.body.message).toContain(name);

    const list = await admin.get("/api/v1/backups");
    expect(list.status).toBe(200);
    expect(list.body.backups.map((b: { name: string }) => b.name)).toEqual([name]);
    expect(list.body.backups[0].manual).toBe(true);
    expect(list.body.meta.keep).toBe(7);

    const download = await t.app.inject({
      method: "GET",
      url: `/api/v1/backups/${name}`,
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers["content-type"]).toContain("application/gzip");
    const entries = readTarGz(download.rawPayload);
    const manifest = JSON.parse((entries.get("manifest.json") as Buffer).toString("utf8"));
    expect(manifest.database).toBe(t.app.db.kind === "pg" ? "postgresql" : "pglite");
    expect(entries.get("drive/Clientes/contrato ñandú.txt")?.toString()).toBe("contrato firmado");
    expect(manifest.files.map((f: { path: string }) => f.path)).toContain("drive/Clientes/contrato ñandú.txt");

    // The run is on the jobs page like any other job's.
    const jobs = await admin.get("/api/v1/jobs");
    const job = jobs.body.jobs.find((j: { name: string }) => j.name === "nightly_backup");
    expect(job.runs[0]).toMatchObject({ trigger: "manual", file: name });
  });

  it("a backup the server cannot write is a Spanish 503, and no run is recorded", async () => {
    await withBackupDirAFile("no-es-carpeta", async () => {
      const before = (await admin.get("/api/v1/jobs")).body.jobs.find((j: { name: string }) => j.name === "nightly_backup").runs;
      const failed = await admin.post("/api/v1/backups", {});
      expect(failed.status, failed.text).toBe(503);
      expect(failed.body.error).toMatch(/^No se pudo escribir el respaldo: /);
      expect(failed.text).not.toMatch(/at .*\.ts:\d+/);
      // «Forzar» on the nightly row runs the same job: the same Spanish 503.
      const forced = await admin.post("/api/v1/jobs/nightly_backup/run", { force: true });
      expect(forced.status, forced.text).toBe(503);
      expect(forced.body.error).toMatch(/^No se pudo escribir el respaldo: /);
      const after = (await admin.get("/api/v1/jobs")).body.jobs.find((j: { name: string }) => j.name === "nightly_backup").runs;
      expect(after).toEqual(before);
    });
  });

  it("a name that is not an archive's, or a path, answers 404", async () => {
    for (const url of [
      "/api/v1/backups/sia-2000-01-01T00-00-00.tar.gz",
      "/api/v1/backups/..%2Fsecret.key",
      "/api/v1/backups/x",
    ]) {
      const res = await admin.get(url);
      expect(res.status, url).toBe(404);
    }
  });

  it("only regular files of BACKUP_DIR are archives: a folder or a link named like one is not listed, served or pruned", async () => {
    const dir = t.app.config.backupDir;
    fs.mkdirSync(dir, { recursive: true });
    const secret = path.join(t.app.config.dataDir, "secret.key");
    fs.writeFileSync(secret, "clave secreta");
    const folder = "sia-2001-01-01T00-00-00.tar.gz";
    const link = "sia-2001-01-02T00-00-00.tar.gz";
    fs.mkdirSync(path.join(dir, folder));
    fs.symlinkSync(secret, path.join(dir, link));
    try {
      const list = await admin.get("/api/v1/backups");
      expect(list.status).toBe(200);
      const names = list.body.backups.map((b: { name: string }) => b.name);
      expect(names).not.toContain(folder);
      expect(names).not.toContain(link);
      for (const name of [folder, link]) {
        const res = await admin.get(`/api/v1/backups/${name}`);
        expect(res.status, name).toBe(404);
        expect(res.text).not.toContain("clave secreta");
      }
      expect(() => pruneArchives(dir, 0)).not.toThrow();
      expect(fs.statSync(path.join(dir, folder)).isDirectory()).toBe(true);
      expect(fs.lstatSync(path.join(dir, link)).isSymbolicLink()).toBe(true);
    } finally {
      fs.rmSync(path.join(dir, folder), { recursive: true, force: true });
      fs.rmSync(path.join(dir, link), { force: true });
    }
  });

  it("pruning keeps BACKUP_KEEP nightly archives, newest by the time in the name, and never a manual one", () => {
    const dir = fs.mkdtempSync(path.join(t.app.config.dataDir, "poda-"));
    const names = [
      "sia-2026-11-27T14-05-24.tar.gz",
      "sia-2026-11-27T14-05-24-1.tar.gz",
      "sia-2026-11-27T14-05-24-2.tar.gz",
      "sia-2026-11-26T03-00-00.tar.gz",
      "sia-2026-11-20T10-00-00-manual.tar.gz",
      "sia-2026-11-21T10-00-00-1-manual.tar.gz",
    ];
    for (const name of names) fs.writeFileSync(path.join(dir, name), "");
    try {
      expect(pruneArchives(dir, 2).sort()).toEqual(["sia-2026-11-26T03-00-00.tar.gz", "sia-2026-11-27T14-05-24.tar.gz"]);
      expect(fs.readdirSync(dir).sort()).toEqual([
        "sia-2026-11-20T10-00-00-manual.tar.gz",
        "sia-2026-11-21T10-00-00-1-manual.tar.gz",
        "sia-2026-11-27T14-05-24-1.tar.gz",
        "sia-2026-11-27T14-05-24-2.tar.gz",
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("a BACKUP_DIR that is not a folder stops the start, in one Spanish line", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sia-bkdir-"));
    const notAFolder = path.join(dataDir, "respaldos.txt");
    fs.writeFileSync(notAFolder, "");
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    try {
      const started = startServer({ dataDir }, port, { BACKUP_DIR: notAFolder });
      const error = await started.then(
        async (server) => {
          await server.kill("SIGTERM");
          return undefined;
        },
        (e: Error) => e,
      );
      expect(error?.message).toContain(`BACKUP_DIR: ${notAFolder} no es una carpeta`);
      expect(error?.message).not.toMatch(/\n\s+at /);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it("a BACKUP_DIR broken after the start answers the list with a Spanish 503, never a 500", async () => {
    await withBackupDirAFile("no-es-carpeta-lista", async () => {
      const list = await admin.get("/api/v1/backups");
      expect(list.status, list.text).toBe(503);
      expect(list.body.error).toBe(backupMessages.listFailed);
    });
  });
});
