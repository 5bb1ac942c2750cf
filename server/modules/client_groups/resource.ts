// Outer columns in scalar subqueries are written table-qualified: drizzle renders columns of a
// single-table select unqualified, so an unqualified name could bind to the subquery's own table.
import { eq, sql } from "drizzle-orm";
import { messages } from "../../../src/core/messages";
import { clientGroupSchema, clientGroupUpdateSchema } from "../../../src/core/schemas/client_group";
import { client_groups, clients } from "../../db/schema";
import { searchOf, sortableOf } from "../../http/columns";
import { answered } from "../../http/records";
import { declareResource } from "../../http/resource";
import { alphabetical } from "../../http/sql";

const clientsCount = sql<number>`(select count(*)::int from ${clients} where ${clients.client_group_id} = ${sql.raw('"client_groups"."id"')})`;

export const clientGroupsResource = declareResource({
  // Its computed columns, typed (server/http/records.ts).
  answer: {
    clients_count: answered.whole,
  },
  name: "client_groups",
  singular: "client_group",
  table: client_groups,
  createSchema: clientGroupSchema,
  updateSchema: clientGroupUpdateSchema,
  search: searchOf("client_groups", { name: client_groups.name }),
  sortable: sortableOf("client_groups", {
    id: client_groups.id,
    name: alphabetical(client_groups.name),
    clients_count: clientsCount,
    created_at: client_groups.created_at,
  }),
  defaultSort: { column: "name", order: "asc" },
  computed: { clients_count: clientsCount.as("clients_count") },
  nested: [
    {
      // Read-only here: a client joins a group from the client's own form.
      name: "clients",
      table: clients,
      foreignKey: clients.client_group_id,
      columns: { id: clients.id, name: clients.name, client_code: clients.client_code },
      writable: [],
    },
  ],
  deleteGuards: [
    async (id, db) => {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(clients).where(eq(clients.client_group_id, id));
      return row && row.n > 0 ? messages.clientGroupInUse(row.n) : null;
    },
  ],
});
