/**
 * The licence script (docs/license-script.md) run the way the document says, on every database it names:
 * MariaDB through its own command-line client (`mariadb base < licencia.sql`, default sql_mode, where a
 * backslash escapes), PostgreSQL (PGlite) and SQLite (`sqlite3`). Hostile names — backslashes before
 * quotes, a trailing backslash, doubled quotes, statements, comments, client commands, newlines, unicode,
 * every printable ASCII character — must come back byte for byte, and no other table may be touched.
 * MariaDB: 127.0.0.1:3306, root without password (SIA_TEST_MARIADB_HOST / _PORT / _USER to change); the
 * MariaDB part is skipped, saying why, only when no server answers there.
 */
import { spawnSync } from "node:child_process";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../support/app";
import { type ApiClient, buildClient, buildProduct, signInAs } from "../support/factories";
import { recordFigures } from "../support/figures";

const PRINTABLE = Array.from({ length: 95 }, (_, i) => String.fromCharCode(0x20 + i)).join("");

/** Each case is one licence: its client, product and entity carry the hostile texts. */
const CASES: Array<{ client: string; code: string; product: string; entity: string }> = [
  {
    client: "O\\'; DROP TABLE clientes; --",
    code: "C\\'",
    product: "P\\'); DROP TABLE clientes; #",
    entity: "O\\\\''; DROP TABLE clientes; /*",
  },
  { client: "x\\", code: "\\", product: "\\\\", entity: "termina en barra \\" },
  {
    client: "''); DELETE FROM clientes; --",
    code: "''",
    product: '"; DROP TABLE clientes; --',
    entity: "`clientes`; TRUNCATE clientes",
  },
  {
    client: "línea 1\nDELIMITER //\nDROP TABLE clientes //",
    code: "C\n1",
    product: "\\G\n\\q\nsource /etc/passwd",
    entity: "*/ DROP TABLE clientes; /*!50000 DROP TABLE clientes */",
  },
  {
    client: "Ñandú Ávila — 中文 🚀 \u00a0é",
    code: "Ñ🚀",
    product: "Producto ü ß ❤",
    entity: "Entidad \u2028 \u202e invertido 𝒜",
  },
  { client: PRINTABLE, code: "!#\\%_'", product: PRINTABLE, entity: `${PRINTABLE}${PRINTABLE}` },
  { client: "%_\\%\\_\\0\\n\\r\\Z\\b\\t", code: "\\0\\Z", product: "\\x27\\u0027", entity: "\\\\\\'\\\\'\\'" },
];

const MARIADB = {
  host: process.env.SIA_TEST_MARIADB_HOST ?? "127.0.0.1",
  port: process.env.SIA_TEST_MARIADB_PORT ?? "3306",
  user: process.env.SIA_TEST_MARIADB_USER ?? "root",
};
const mariadbClient = ["mariadb", "mysql"].find((bin) => spawnSync(bin, ["--version"]).status === 0);

/** The MariaDB command-line client, as docs/license-script.md runs it: the script on standard input. */
function mariadb(database: string | null, input: string, extra: string[] = []) {
  const args = ["-h", MARIADB.host, "-P", MARIADB.port, "-u", MARIADB.user, ...extra];
  if (database) args.push(database);
  return spawnSync(mariadbClient ?? "mariadb", args, { input, encoding: "utf8", timeout: 30_000 });
}
const mariadbDown = !mariadbClient
  ? "no hay cliente mariadb/mysql instalado"
  : mariadb(null, "SELECT 1;").status !== 0
    ? `MariaDB no responde en ${MARIADB.host}:${MARIADB.port}`
    : null;

const hex = (text: string) => Buffer.from(text, "utf8").toString("hex").toUpperCase();
const TEXT_COLUMNS = ["cliente_codigo", "cliente_nombre", "entidad_nombre", "producto_codigo", "producto_nombre"] as const;

let t: TestApp;
let admin: ApiClient;
const scripts: Array<{ id: number; sql: string; expected: Record<(typeof TEXT_COLUMNS)[number], string> }> = [];

beforeAll(async () => {
  t = await buildTestApp();
  admin = (await signInAs(t.app, "admin")).api;
  for (const c of CASES) {
    const client = await buildClient(t.app.db.db, { name: c.client, client_code: c.code });
    const product = await buildProduct(t.app.db.db, { name: c.product, product_code: c.code });
    const created = await admin.post("/api/v1/app_licenses", {
      app_license: {
        client_id: client.id,
        product_catalog_id: product.id,
        entity_name: c.entity,
        entity_rfc: "AAA010101AA1",
        license_valid_until: "2031-12-31",
        modules: ["Reception"],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.app_license.id as number;
    const res = await admin.get(`/api/v1/app_licenses/${id}/download_license_script`);
    expect(res.status).toBe(200);
    scripts.push({
      id,
      sql: res.text,
      expected: {
        cliente_codigo: c.code,
        cliente_nombre: c.client,
        entidad_nombre: created.body.app_license.entity_name,
        producto_codigo: c.code,
        producto_nombre: c.product,
      },
    });
  }
});
afterAll(() => t?.close());

describe("licence script: no literal holds a backslash", () => {
  it("every literal reads the same whether or not backslashes escape", () => {
    for (const { sql } of scripts) {
      // Outside the fixed SUBSTR('\\', 1, 1), no backslash is written at all.
      expect(sql.replaceAll("SUBSTR('\\\\', 1, 1)", "")).not.toContain("\\");
    }
  });
});

describe.skipIf(mariadbDown !== null)(`licence script on MariaDB${mariadbDown ? ` (omitido: ${mariadbDown})` : ""}`, () => {
  const database = `sia_licencias_${process.pid}_${Date.now()}`;
  beforeAll(() => {
    const made = mariadb(null, `CREATE DATABASE ${database} CHARACTER SET utf8mb4;`);
    expect(made.status, made.stderr).toBe(0);
    const canary = mariadb(
      database,
      "CREATE TABLE clientes (id INT PRIMARY KEY, nombre VARCHAR(20)); INSERT INTO clientes VALUES (1, 'intacto');",
    );
    expect(canary.status, canary.stderr).toBe(0);
  });
  afterAll(() => {
    if (!mariadbDown) mariadb(null, `DROP DATABASE IF EXISTS ${database};`);
  });

  it("runs each script twice with the client's defaults; every name round-trips, nothing else changes", () => {
    const mode = mariadb(database, "SELECT @@SESSION.sql_mode;", ["-N", "--batch"]);
    expect(mode.stdout).not.toContain("NO_BACKSLASH_ESCAPES");
    for (const { sql } of scripts) {
      for (const round of [1, 2]) {
        const run = mariadb(database, sql);
        expect(run.status, `ronda ${round}: ${run.stderr}`).toBe(0);
      }
    }
    const read = mariadb(
      database,
      `SELECT licencia_id, ${TEXT_COLUMNS.map((c) => `HEX(${c})`).join(", ")}, entidad_rfc, vigente_hasta, modulo_recepcion FROM sia_licencias ORDER BY licencia_id;`,
      ["-N", "--batch", "--raw"],
    );
    expect(read.status, read.stderr).toBe(0);
    const rows = read.stdout
      .trim()
      .split("\n")
      .map((line) => line.split("\t"));
    expect(rows).toHaveLength(scripts.length);
    scripts.forEach(({ id, expected }, i) => {
      expect(rows[i]).toEqual([String(id), ...TEXT_COLUMNS.map((c) => hex(expected[c])), "AAA010101AA1", "2031-12-31", "1"]);
    });
    const tables = mariadb(database, "SHOW TABLES;", ["-N", "--batch"]);
    expect(tables.stdout.trim().split("\n").sort()).toEqual(["clientes", "sia_licencias"]);
    expect(mariadb(database, "SELECT id, nombre FROM clientes;", ["-N", "--batch"]).stdout.trim()).toBe("1\tintacto");
    recordFigures(
      "seguridad-licencia-sql",
      `Script de licencia: ${scripts.length} licencias hostiles ejecutadas 2 veces en MariaDB (cliente mariadb, sql_mode por omisión), PostgreSQL y SQLite; ${scripts.length * TEXT_COLUMNS.length} textos idénticos, ninguna tabla tocada`,
      { licenses: scripts.length, texts: scripts.length * TEXT_COLUMNS.length },
    );
  });

  it("reads the same in other sql_modes: NO_BACKSLASH_ESCAPES, ANSI_QUOTES, PIPES_AS_CONCAT", () => {
    const modes = "SET SESSION sql_mode = CONCAT(@@SESSION.sql_mode, ',NO_BACKSLASH_ESCAPES,ANSI_QUOTES,PIPES_AS_CONCAT');";
    mariadb(database, "DELETE FROM sia_licencias;");
    for (const { sql } of scripts) {
      const run = mariadb(database, `${modes}\n${sql}`);
      expect(run.status, run.stderr).toBe(0);
    }
    const read = mariadb(
      database,
      `SELECT licencia_id, ${TEXT_COLUMNS.map((c) => `HEX(${c})`).join(", ")} FROM sia_licencias ORDER BY licencia_id;`,
      ["-N", "--batch", "--raw"],
    );
    const rows = read.stdout
      .trim()
      .split("\n")
      .map((line) => line.split("\t"));
    expect(rows).toEqual(scripts.map(({ id, expected }) => [String(id), ...TEXT_COLUMNS.map((c) => hex(expected[c]))]));
    expect(mariadb(database, "SELECT id, nombre FROM clientes;", ["-N", "--batch"]).stdout.trim()).toBe("1\tintacto");
  });

  it("a script that fails half-way leaves the licence it replaces in place (CREATE TABLE is outside the transaction)", () => {
    const { sql, id } = scripts[0];
    const broken = sql.replace(/VALUES \(/, "VALUES ('no es un número', ");
    expect(mariadb(database, broken).status).not.toBe(0);
    const count = mariadb(database, `SELECT COUNT(*) FROM sia_licencias WHERE licencia_id = ${id};`, ["-N", "--batch"]);
    expect(count.stdout.trim()).toBe("1");
  });
});

describe("licence script on PostgreSQL and SQLite", () => {
  it("PostgreSQL (PGlite): every name round-trips", async () => {
    const pg = new PGlite();
    try {
      await pg.exec("CREATE TABLE clientes (id int); INSERT INTO clientes VALUES (1);");
      for (const { sql } of scripts) {
        await pg.exec(sql);
        await pg.exec(sql);
      }
      const rows = (await pg.query<Record<string, unknown>>("select * from sia_licencias order by licencia_id")).rows;
      expect(rows.map((r) => Object.fromEntries(TEXT_COLUMNS.map((c) => [c, r[c]])))).toEqual(scripts.map((s) => s.expected));
      expect((await pg.query("select count(*)::int as n from clientes")).rows).toEqual([{ n: 1 }]);
    } finally {
      await pg.close();
    }
  });

  const sqlite = spawnSync("sqlite3", ["-version"]).status === 0;
  it.skipIf(!sqlite)(`SQLite: every name round-trips${sqlite ? "" : " (omitido: no hay sqlite3)"}`, () => {
    const script = [
      "CREATE TABLE clientes (id int); INSERT INTO clientes VALUES (1);",
      ...scripts.flatMap((s) => [s.sql, s.sql]),
      ".mode list",
      `SELECT licencia_id, ${TEXT_COLUMNS.map((c) => `hex(${c})`).join(", ")} FROM sia_licencias ORDER BY licencia_id;`,
      "SELECT count(*) FROM clientes;",
    ].join("\n");
    const run = spawnSync("sqlite3", ["-bail", ":memory:"], { input: script, encoding: "utf8" });
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.trim().split("\n");
    expect(lines.at(-1)).toBe("1");
    expect(lines.slice(0, -1).map((l) => l.split("|"))).toEqual(
      scripts.map(({ id, expected }) => [String(id), ...TEXT_COLUMNS.map((c) => hex(expected[c]))]),
    );
  });
});
