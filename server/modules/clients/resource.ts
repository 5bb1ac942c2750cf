import { and, asc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { CLIENT_FOLDERS, NEW_CLIENT_CODE } from "../../../src/core/constants";
import { messages } from "../../../src/core/messages";
import { canAccess } from "../../../src/core/permissions";
import {
  clientSchema,
  clientUpdateSchema,
  nextClientCodeAnswer,
  searchClientsAnswer,
  searchClientsQuery,
} from "../../../src/core/schemas/client";
import type { Tx } from "../../db/client";
import { activities, client_groups, client_product_catalogs, clients, products, prospects } from "../../db/schema";
import { requires } from "../../http/auth";
import { csvOf, searchOf, sortableOf } from "../../http/columns";
import { doc } from "../../http/openapi";
import { answered } from "../../http/records";
import { declareResource, filter } from "../../http/resource";
import { searchCondition } from "../../http/search";
import { outer } from "../../http/sql";
import { safeFolderName } from "../../ports/documents";
import {
  assertFolderFree,
  driveFailure,
  driveWorkOf,
  keepVersion,
  placeProjectFolder,
  projectsOfClient,
  renameOwnFolder,
  resolveDriveFolder,
  touchesFolder,
  undoDriveWorkOnFailure,
} from "../drive";
import { warnSimilarClients } from "./similar";

/** The next numeric client code: one more than the largest numeric code so far. */
export async function nextClientCode(db: Tx): Promise<string> {
  const [row] = await db
    .select({ max: sql<number>`coalesce(max(${clients.client_code}::bigint), 1000)::bigint` })
    .from(clients)
    .where(sql`${clients.client_code} ~ '^[0-9]{1,15}$'`);
  return String(Number(row?.max ?? 1000) + 1);
}

const groupName = sql<
  string | null
>`(select ${client_groups.name} from ${client_groups} where ${client_groups.id} = ${outer(clients.client_group_id)})`;

export const clientsResource = declareResource({
  // Its computed columns, typed (server/http/records.ts).
  answer: {
    client_group_name: answered.text,
  },
  name: "clients",
  singular: "client",
  table: clients,
  createSchema: clientSchema,
  updateSchema: clientUpdateSchema,
  search: searchOf("clients", {
    name: clients.name,
    client_code: clients.client_code,
    rfc: clients.rfc,
    complete_name: clients.complete_name,
  }),
  sortable: sortableOf("clients", {
    id: clients.id,
    name: clients.name,
    client_code: clients.client_code,
    rfc: clients.rfc,
    email: clients.email,
    is_production_ready: clients.is_production_ready,
    created_at: clients.created_at,
    client_group_name: groupName,
  }),
  defaultSort: { column: "name", order: "asc" },
  filters: {
    by_client_group: filter.idIn(clients.client_group_id),
    client_group_id: filter.idEquals(clients.client_group_id),
    by_is_production_ready: filter.bool(clients.is_production_ready),
    was_prospect: filter.bool(clients.was_prospect),
  },
  computed: { client_group_name: groupName.as("client_group_name") },
  nested: [
    {
      name: "client_product_catalogs",
      table: client_product_catalogs,
      foreignKey: client_product_catalogs.client_id,
      columns: {
        id: client_product_catalogs.id,
        product_catalog_id: client_product_catalogs.product_catalog_id,
        product_catalog_name: sql<string>`(select ${products.name} from ${products} where ${products.id} = ${outer(client_product_catalogs.product_catalog_id)})`,
        annual_support_hours: client_product_catalogs.annual_support_hours,
      },
      writable: ["product_catalog_id", "annual_support_hours"],
    },
  ],
  deleteGuards: [
    async (id, db) => {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(activities)
        .where(and(eq(activities.ownerable_type, "Client"), eq(activities.ownerable_id, id)));
      return row && row.n > 0 ? `el cliente tiene ${row.n} actividades registradas` : null;
    },
  ],
  // A failed create or update undoes the folders its hooks made.
  aroundWrite: undoDriveWorkOnFailure,
  async beforeWrite(values, ctx, existing) {
    if (existing) delete values.confirm_similar;
    else await warnSimilarClients(ctx.db, values);
    if (!existing && (values.client_code === undefined || values.client_code === NEW_CLIENT_CODE)) {
      values.client_code = await nextClientCode(ctx.db);
    }
    if (existing && values.client_code === NEW_CLIENT_CODE) delete values.client_code;
    // The client's folder (SPEC §5): required, one of this drive's folders; the URL is checked only
    // when it changes, so records from before the drive (seeded, imported) still save.
    if (touchesFolder(values, existing)) {
      const folder = await resolveDriveFolder(ctx.app.documents, values, { requiredMessage: messages.clientFolderRequired });
      // One folder, one record (decision 027): not another's, not inside another's, not holding others'.
      if (folder) await assertFolderFree(ctx.db, ctx.app.documents, folder, { kind: "client", id: existing?.id });
    }
    return values;
  },
  async afterWrite(record, ctx, existing) {
    const work = driveWorkOf(ctx.app, ctx.request);
    try {
      if (record.drive_root_id && (!existing || existing.drive_root_id !== record.drive_root_id)) {
        // Its structure (SPEC §9) inside the chosen folder, created last, undone if the write fails; the
        // projects' folders follow it into its Proyectos.
        await work.ensureStructure(record.drive_root_id, CLIENT_FOLDERS);
        if (existing) {
          for (const project of await projectsOfClient(ctx.db, record.id)) {
            await placeProjectFolder(ctx.db, work, project, { bump: true });
          }
        }
      } else if (existing && existing.name !== record.name) {
        // Renamed: its own folder is renamed after it (decision 027).
        const folder = await renameOwnFolder(
          ctx.db,
          work,
          { kind: "client", id: record.id },
          record.drive_root_id,
          safeFolderName(String(record.name)),
        );
        if (folder) {
          await ctx.db
            .update(clients)
            .set({ drive_root_id: folder.id, drive_root_url: folder.url, ...keepVersion(clients) })
            .where(eq(clients.id, record.id));
        }
      }
    } catch (error) {
      driveFailure(error);
    }
  },
  csv: {
    filename: "clientes.csv",
    columns: csvOf("clients"),
  },
  routes(app) {
    app.get(
      "/clients/next_client_code",
      {
        config: requires("clients", "create"),
        schema: doc({ tags: ["clients"], summary: "Siguiente código de cliente", response: { 200: nextClientCodeAnswer } }),
      },
      async (_request) => {
        return { client_code: await nextClientCode(app.db.db) };
      },
    );
    app.get(
      "/clients/search_clients_and_prospects",
      {
        config: requires("clients", "list"),
        schema: doc({
          tags: ["clients"],
          summary: "Buscar clientes y prospectos",
          querystring: searchClientsQuery,
          response: { 200: searchClientsAnswer },
        }),
      },
      async (request) => {
        const { search } = request.query as z.output<typeof searchClientsQuery>;
        const db = app.db.db;
        const [foundClients, foundProspects] = await Promise.all([
          db
            .select({ id: clients.id, name: clients.name, client_code: clients.client_code })
            .from(clients)
            .where(
              search
                ? searchCondition([clients.name, clients.client_code, clients.rfc, clients.complete_name], search)
                : undefined,
            )
            .orderBy(asc(clients.name))
            .limit(10),
          canAccess({ user: request.user, resource: "prospects", action: "list" })
            ? db
                .select({ id: prospects.id, name: prospects.name })
                .from(prospects)
                // A won prospect is found as its client.
                .where(
                  and(
                    sql`not exists (select 1 from ${clients} where ${clients.prospect_id} = ${prospects.id})`,
                    search ? searchCondition([prospects.name], search) : undefined,
                  ),
                )
                .orderBy(asc(prospects.name))
                .limit(10)
            : Promise.resolve([]),
        ]);
        return { clients: foundClients, prospects: foundProspects };
      },
    );
  },
});
