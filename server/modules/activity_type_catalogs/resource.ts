import { eq, sql } from "drizzle-orm";
import { messages } from "../../../src/core/messages";
import { activityTypeCatalogSchema, activityTypeCatalogUpdateSchema } from "../../../src/core/schemas/activity_type_catalog";
import { activities, activity_type_catalogs } from "../../db/schema";
import { searchOf, sortableOf } from "../../http/columns";
import { declareResource } from "../../http/resource";

export const activityTypeCatalogsResource = declareResource({
  name: "activity_type_catalogs",
  singular: "activity_type_catalog",
  table: activity_type_catalogs,
  createSchema: activityTypeCatalogSchema,
  updateSchema: activityTypeCatalogUpdateSchema,
  search: searchOf("activity_type_catalogs", { code: activity_type_catalogs.code, name: activity_type_catalogs.name }),
  sortable: sortableOf("activity_type_catalogs", {
    id: activity_type_catalogs.id,
    code: activity_type_catalogs.code,
    name: activity_type_catalogs.name,
  }),
  defaultSort: { column: "id", order: "asc" },
  deleteGuards: [
    async (id, db) => {
      const [row] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(activities)
        .where(eq(activities.activity_type_catalog_id, id));
      return row && row.n > 0 ? messages.activityTypeInUse(row.n) : null;
    },
  ],
});
