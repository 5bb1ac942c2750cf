import { and, eq, sql } from "drizzle-orm";
import { messages } from "../../../src/core/messages";
import { prospectSchema, prospectUpdateSchema } from "../../../src/core/schemas/prospect";
import { activities, prospects, quotations } from "../../db/schema";
import { declareResource } from "../../http/resource";

export const prospectsResource = declareResource({
  name: "prospects",
  singular: "prospect",
  table: prospects,
  createSchema: prospectSchema,
  updateSchema: prospectUpdateSchema,
  search: [prospects.name],
  sortable: { id: prospects.id, name: prospects.name, created_at: prospects.created_at },
  defaultSort: { column: "name", order: "asc" },
  deleteGuards: [
    // quotations.prospect_id is ON DELETE SET NULL and activities point at prospects polymorphically,
    // so neither is stopped by the database: the rule lives here.
    async (id, db) => {
      const [q] = await db.select({ n: sql<number>`count(*)::int` }).from(quotations).where(eq(quotations.prospect_id, id));
      const [a] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(activities)
        .where(and(eq(activities.ownerable_type, "Prospect"), eq(activities.ownerable_id, id)));
      const nq = q?.n ?? 0;
      const na = a?.n ?? 0;
      return nq + na > 0 ? messages.prospectInUse(nq, na) : null;
    },
  ],
});
