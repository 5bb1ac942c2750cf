/**
 * Migration 0008 on a database written before it: records that broke the new rules (two clients
 * on one folder, one folio on two invoices, a prospect won twice) are brought in line, and then the
 * indexes hold. Embedded database only: the migration is the same SQL on PostgreSQL.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, MIGRATIONS_FOLDER, openPglite } from "../../server/db/client";

let database: Database;
let before: string;

beforeAll(async () => {
  // The migrations up to 0007, as a database of the previous release had them.
  before = fs.mkdtempSync(path.join(os.tmpdir(), "sia-0007-"));
  fs.cpSync(MIGRATIONS_FOLDER, before, { recursive: true });
  const journalPath = path.join(before, "meta", "_journal.json");
  const journal = JSON.parse(fs.readFileSync(journalPath, "utf8"));
  journal.entries = journal.entries.filter((e: { idx: number }) => e.idx <= 7);
  fs.writeFileSync(journalPath, JSON.stringify(journal));
  database = await openPglite();
  await migrate(database.db as never, { migrationsFolder: before });
});
afterAll(async () => {
  await database?.close();
  fs.rmSync(before, { recursive: true, force: true });
});

describe.skipIf(Boolean(process.env.DATABASE_URL))("migration 0008 on older data", () => {
  it("keeps a shared folder and a folio on the oldest record, links won prospects, then enforces the rules", async () => {
    const run = (q: ReturnType<typeof sql>) => database.rows(q);
    await run(sql`insert into prospects (id, name) values (1, 'Ganado')`);
    await run(sql`insert into clients (id, name, client_code, drive_root_id) values
      (1, 'Uno', '2001', 'Clientes/Compartida'), (2, 'Dos', '2002', 'Clientes/Compartida'), (3, 'Tres', '2003', 'Clientes/Tres')`);
    await run(sql`insert into products (id, product_code, name) values (1, 'P1', 'Producto')`);
    await run(sql`insert into project_types (id, name) values (1, 'Tipo')`);
    await run(sql`insert into projects (id, project_code, name, client_id, project_type_catalog_id, product_catalog_id, project_date)
      values (1, 'PRY-0001', 'Proyecto', 1, 1, 1, '2026-01-01')`);
    await run(sql`insert into invoices (id, folio, percentage_value, project_id) values
      (1, 'A-100', 10, 1), (2, ' a-100 ', 10, 1), (3, 'A-101', 10, 1), (4, null, 10, 1), (5, null, 10, 1)`);
    await run(sql`insert into quotations (contact_name, prospect_id, product_catalog_id, state, client_id) values
      ('C', 1, 1, 'finalizada', 2), ('C', 1, 1, 'finalizada', 3)`);

    await database.migrate();

    const clients = await run(sql`select id, drive_root_id, prospect_id from clients order by id`);
    expect(clients).toEqual([
      { id: 1, drive_root_id: "Clientes/Compartida", prospect_id: null },
      { id: 2, drive_root_id: null, prospect_id: 1 },
      { id: 3, drive_root_id: "Clientes/Tres", prospect_id: null },
    ]);
    const invoices = await run(sql`select id, folio from invoices order by id`);
    expect(invoices.map((r) => r.folio)).toEqual(["A-100", "a-100 (duplicado 2)", "A-101", null, null]);

    await expect(run(sql`update clients set drive_root_id = 'Clientes/Tres' where id = 1`)).rejects.toThrow();
    await expect(run(sql`update invoices set folio = 'a-101' where id = 4`)).rejects.toThrow();
    await expect(run(sql`update clients set prospect_id = 1 where id = 3`)).rejects.toThrow();
  });
});
