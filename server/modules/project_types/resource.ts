import { eq, sql } from "drizzle-orm";
import { messages } from "../../../src/core/messages";
import { projectTypeSchema, projectTypeUpdateSchema } from "../../../src/core/schemas/project_type";
import { project_types, projects } from "../../db/schema";
import { searchOf, sortableOf } from "../../http/columns";
import { declareResource } from "../../http/resource";

export const projectTypesResource = declareResource({
  name: "project_types",
  singular: "project_type",
  table: project_types,
  createSchema: projectTypeSchema,
  updateSchema: projectTypeUpdateSchema,
  search: searchOf("project_types", { name: project_types.name }),
  sortable: sortableOf("project_types", { id: project_types.id, name: project_types.name, created_at: project_types.created_at }),
  defaultSort: { column: "id", order: "asc" },
  deleteGuards: [
    async (id, db) => {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(projects)
        .where(eq(projects.project_type_catalog_id, id));
      return row && row.n > 0 ? messages.projectTypeInUse(row.n) : null;
    },
  ],
});
