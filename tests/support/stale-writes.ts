/**
 * Stale writes, taught to the suites as a class: `together` fires N requests at once (no one waits for
 * another) and tallies their statuses; `recordsOfEveryResource` makes one real record of every declared
 * resource, so a test can race the updates of each without naming them.
 */
import {
  activity_type_catalogs,
  app_licenses,
  assignments,
  estimated_work_hours,
  holydays,
  project_types,
} from "../../server/db/schema";
import { APP_SETTINGS_ID } from "../../server/modules/app_settings/resource";
import type { TestApp } from "./app";
import { buildActivity, buildPosition, buildProspect, buildQuotation } from "./catalog-factories";
import { buildClient, buildClientGroup, buildProduct, buildUser, buildWorkspace } from "./factories";
import { buildInvoice, buildProject } from "./project-factories";

export interface Tally<T> {
  results: T[];
  /** How many answered each status: {200: 1, 409: 1}. */
  statuses: Record<number, number>;
}

/** Starts every request before awaiting any: a real race, on the server's own concurrency. */
export async function together<T extends { status: number }>(n: number, request: (i: number) => Promise<T>): Promise<Tally<T>> {
  const results = await Promise.all(Array.from({ length: n }, (_, i) => request(i)));
  const statuses: Record<number, number> = {};
  for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  return { results, statuses };
}

/** One record of each declared resource (name → id), made directly in the database. */
export async function recordsOfEveryResource(t: TestApp): Promise<Record<string, number>> {
  const db = t.app.db.db;
  const one = async (rows: Promise<Array<{ id: number }>>) => (await rows)[0].id;
  const client = await buildClient(db);
  const product = await buildProduct(db);
  const someone = await buildUser(db, "operator");
  const employee = someone.employee!.id;
  const prospect = await buildProspect(db);
  const project = await buildProject(db, { client_id: client.id });
  const position = await buildPosition(db);
  return {
    clients: client.id,
    products: product.id,
    prospects: prospect.id,
    quotations: (await buildQuotation(db, product.id, prospect.id)).id,
    client_groups: (await buildClientGroup(db)).id,
    users: someone.user.id,
    employees: employee,
    employee_positions: position.id,
    workspaces: (await buildWorkspace(db)).id,
    assignments: await one(
      db
        .insert(assignments)
        .values({
          employee_id: employee,
          client_id: client.id,
          product_catalog_id: product.id,
          start_on: "2031-02-01",
          end_on: "2031-02-10",
        })
        .returning(),
    ),
    holydays: await one(db.insert(holydays).values({ date: "2031-03-01", name: "Festivo de versiones" }).returning()),
    app_licenses: await one(
      db
        .insert(app_licenses)
        .values({ client_id: client.id, product_catalog_id: product.id, entity_name: "E", entity_rfc: "AAA010101AA1" })
        .returning(),
    ),
    estimated_work_hours: await one(
      db
        .insert(estimated_work_hours)
        .values({ project_id: project.id, employee_position_id: position.id, estimated_hours: 3 })
        .returning(),
    ),
    project_types: await one(db.insert(project_types).values({ name: "Tipo de versiones" }).returning()),
    activity_type_catalogs: await one(
      db.insert(activity_type_catalogs).values({ code: "VER", name: "Tipo de actividad de versiones" }).returning(),
    ),
    app_settings: APP_SETTINGS_ID,
    activities: (await buildActivity(db, employee)).id,
    projects: project.id,
    invoices: (await buildInvoice(db, project.id)).id,
  };
}
