/** Projects and invoices for tests, inserted directly (the API tests create through the API). */
import type { Db } from "../../server/db/client";
import { invoices, project_types, projects } from "../../server/db/schema";
import { buildClient, buildProduct } from "./factories";

let n = 0;
export async function buildProject(db: Db, overrides: Partial<typeof projects.$inferInsert> = {}) {
  n += 1;
  const client_id = overrides.client_id ?? (await buildClient(db)).id;
  const code = `T-${Date.now().toString(36)}-${n}-${Math.floor(Math.random() * 1e6)}`;
  return (
    await db
      .insert(projects)
      .values({ name: `Proyecto ${n}`, project_code: code, ...overrides, client_id })
      .returning()
  )[0];
}

export async function buildInvoice(db: Db, project_id: number, overrides: Partial<typeof invoices.$inferInsert> = {}) {
  return (
    await db
      .insert(invoices)
      .values({ project_id, percentage_value: 10, ...overrides })
      .returning()
  )[0];
}

/** What every project needs besides its name and client: a type, a product and a date. */
export async function projectBasics(db: Db) {
  const [type] = await db
    .insert(project_types)
    .values({ name: `Tipo ${Math.random().toString(36).slice(2, 8)}` })
    .returning();
  const product = await buildProduct(db);
  return { project_type_catalog_id: type.id, product_catalog_id: product.id, project_date: "2030-01-02" };
}
