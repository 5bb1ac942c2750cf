import { and, eq, inArray, not, sql } from "drizzle-orm";
import { z } from "zod";
import { messages } from "../../../src/core/messages";
import { workspaceSchema, workspaceUpdateSchema } from "../../../src/core/schemas/workspace";
import type { Tx } from "../../db/client";
import { app_settings, bosses_workspaces, employees, workspaces } from "../../db/schema";
import { requires } from "../../http/auth";
import { searchOf, sortableOf } from "../../http/columns";
import { ValidationError } from "../../http/errors";
import { doc, idParams } from "../../http/openapi";
import { answered, recordSchema } from "../../http/records";
import { declareResource, etagOf, idOf, requireVersion, staleVersion } from "../../http/resource";
import { outer } from "../../http/sql";

const employeesCount = sql<number>`(select count(*)::int from ${employees} where ${employees.workspace_id} = ${outer(workspaces.id)})`;
const bossName = sql<string>`(select ${employees.name} from ${employees} where ${employees.id} = ${outer(bosses_workspaces.employee_id)})`;

/** Bosses must be existing employees, each once per workspace (counting the rows already saved). */
async function checkBosses(values: z.output<typeof workspaceUpdateSchema>, db: Tx, workspaceId: number | null) {
  const rows = values.bosses_workspaces_attributes;
  if (!rows?.length) return;
  const wanted = rows.filter((r) => !r._destroy && r.employee_id).map((r) => r.employee_id);
  if (wanted.length) {
    const found = await db.select({ id: employees.id }).from(employees).where(inArray(employees.id, wanted));
    if (found.length !== new Set(wanted).size)
      throw ValidationError.field("bosses_workspaces_attributes", messages.invalidReference);
  }
  if (!workspaceId) return;
  const touched = rows.flatMap((r) => (r.id ? [r.id] : []));
  const kept = await db
    .select({ employee_id: bosses_workspaces.employee_id })
    .from(bosses_workspaces)
    .where(
      and(
        eq(bosses_workspaces.workspace_id, workspaceId),
        touched.length ? not(inArray(bosses_workspaces.id, touched)) : undefined,
      ),
    );
  const keptIds = new Set(kept.map((k) => k.employee_id));
  if (wanted.some((id) => keptIds.has(id))) throw ValidationError.field("bosses_workspaces_attributes", messages.duplicateBoss);
}

export const workspacesResource = declareResource({
  // Its computed columns, typed (server/http/records.ts).
  answer: {
    employees_count: answered.whole,
  },
  name: "workspaces",
  singular: "workspace",
  table: workspaces,
  createSchema: workspaceSchema,
  updateSchema: workspaceUpdateSchema,
  search: searchOf("workspaces", { name: workspaces.name }),
  sortable: sortableOf("workspaces", { id: workspaces.id, name: workspaces.name }),
  defaultSort: { column: "name", order: "asc" },
  computed: { employees_count: employeesCount.as("employees_count") },
  nested: [
    {
      name: "bosses_workspaces",
      table: bosses_workspaces,
      foreignKey: bosses_workspaces.workspace_id,
      columns: {
        id: bosses_workspaces.id,
        employee_id: bosses_workspaces.employee_id,
        employee_name: bossName,
        employee: sql`(select json_build_object('id', ${employees.id}, 'name', ${employees.name}) from ${employees} where ${employees.id} = ${outer(bosses_workspaces.employee_id)})`,
      },
      writable: ["employee_id"],
    },
    {
      // Read-only: the workspace's employees (the detail screen lists them). The schemas accept no
      // employees_attributes, so nothing is ever written through it.
      name: "employees",
      table: employees,
      foreignKey: employees.workspace_id,
      columns: { id: employees.id, name: employees.name, employee_code: employees.employee_code, is_active: employees.is_active },
      writable: [],
    },
  ],
  deleteGuards: [
    async (id, db) => {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(employees).where(eq(employees.workspace_id, id));
      return row && row.n > 0 ? messages.workspaceHasEmployees(row.n) : null;
    },
    async (id, db) => {
      const [row] = await db
        .select({ id: app_settings.id })
        .from(app_settings)
        .where(eq(app_settings.default_workspace_id, id))
        .limit(1);
      return row ? messages.workspaceIsDefault : null;
    },
  ],
  async beforeWrite(values, ctx, existing) {
    await checkBosses(values, ctx.db, existing?.id ?? null);
    return values;
  },
  routes(app, service) {
    app.put(
      "/workspaces/:id/toggle_notification",
      {
        config: requires("workspaces", "update"),
        schema: doc({
          tags: ["workspaces"],
          summary: "Activar o desactivar las notificaciones del espacio de trabajo",
          params: idParams,
          version: "required",
          current: { key: "workspace", schema: recordSchema(service.def) },
          response: { 200: z.object({ workspace: recordSchema(service.def) }) },
        }),
      },
      async (request, reply) => {
        const ctx = service.context(app, request, "update");
        const id = idOf(request);
        await service.find(ctx, id);
        // A flip is relative: one taken from a row another save has changed since would undo that save, so
        // it needs the version it was read at (428 without) and answers 409 with the row as it is now.
        const expected = requireVersion(request, request.body, "workspace");
        const flipped = await app.db.db
          .update(workspaces)
          .set({ is_notifiable: sql`not ${workspaces.is_notifiable}` })
          .where(and(eq(workspaces.id, id), eq(workspaces.lock_version, expected)))
          .returning({ id: workspaces.id });
        if (!flipped.length) throw staleVersion("workspace", await service.show(ctx, id));
        const workspace = await service.show(ctx, id);
        const etag = etagOf(workspace);
        if (etag) reply.header("etag", etag);
        return { workspace };
      },
    );
  },
});
