import { eq, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { z } from "zod";
import { messages } from "../../../src/core/messages";
import { productSchema, productUpdateSchema } from "../../../src/core/schemas/product";
import type { Tx } from "../../db/client";
import {
  activities,
  app_licenses,
  assignments,
  client_product_catalogs,
  employees,
  products,
  projects,
  quotations,
} from "../../db/schema";
import { searchOf, sortableOf } from "../../http/columns";
import { answered } from "../../http/records";
import { declareResource, filter } from "../../http/resource";
import { outer } from "../../http/sql";

const employeeName = sql<
  string | null
>`(select ${employees.name} from ${employees} where ${employees.id} = ${sql.raw('"products"."employee_id"')})`;

/** Records that keep a product in use, with their Spanish plural. */
const USES: Array<[PgTable, PgColumn, string]> = [
  [client_product_catalogs, client_product_catalogs.product_catalog_id, "clientes"],
  [projects, projects.product_catalog_id, "proyectos"],
  [quotations, quotations.product_catalog_id, "cotizaciones"],
  [app_licenses, app_licenses.product_catalog_id, "licencias"],
  [activities, activities.product_catalog_id, "actividades"],
  [assignments, assignments.product_catalog_id, "asignaciones"],
];

async function productUses(id: number, db: Tx): Promise<string | null> {
  const found: string[] = [];
  for (const [table, column, label] of USES) {
    const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(table).where(eq(column, id));
    if (row && row.n > 0) found.push(`${row.n} ${label}`);
  }
  return found.length ? messages.productInUse(found.join(", ")) : null;
}

export const productsResource = declareResource({
  // Its computed columns, typed (server/http/records.ts).
  answer: {
    employee_name: answered.text,
  },
  name: "products",
  singular: "product",
  table: products,
  createSchema: productSchema,
  updateSchema: productUpdateSchema,
  search: searchOf("products", { name: products.name, product_code: products.product_code }),
  sortable: sortableOf("products", {
    id: products.id,
    name: products.name,
    product_code: products.product_code,
    product_category: products.product_category,
    application_id: products.application_id,
    employee_name: employeeName,
    is_selectable: products.is_selectable,
    created_at: products.created_at,
  }),
  defaultSort: { column: "name", order: "asc" },
  filters: {
    selectable: filter.bool(products.is_selectable),
    by_category: filter.valueIn(products.product_category),
    employee_id: filter.idEquals(products.employee_id),
    // The products linked to a client (client_product_catalogs): what a support activity for it may use.
    by_client: filter.custom(
      z.coerce.number({ error: messages.invalidReference }).int().positive({ error: messages.invalidReference }),
      (clientId) =>
        sql`exists (select 1 from ${client_product_catalogs} where ${client_product_catalogs.product_catalog_id} = ${outer(products.id)} and ${client_product_catalogs.client_id} = ${clientId})`,
    ),
  },
  computed: { employee_name: employeeName.as("employee_name") },
  deleteGuards: [productUses],
});
