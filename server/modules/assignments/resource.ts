import { eq, gte, lte, sql } from "drizzle-orm";
import { assignmentSchema, assignmentUpdateSchema } from "../../../src/core/schemas/assignment";
import { isoDate } from "../../../src/core/schemas/fields";
import { assignments, clients, employees, products } from "../../db/schema";
import { sortableOf } from "../../http/columns";
import { answered } from "../../http/records";
import { declareResource, filter } from "../../http/resource";
import { outer } from "../../http/sql";
import { prepareAssignmentWrite } from "./service";

const employeeName = sql<string>`(select ${employees.name} from ${employees} where ${employees.id} = ${outer(assignments.employee_id)})`;
const clientName = sql<string>`(select ${clients.name} from ${clients} where ${clients.id} = ${outer(assignments.client_id)})`;
const productName = sql<string>`(select ${products.name} from ${products} where ${products.id} = ${outer(assignments.product_catalog_id)})`;
/** Both ends included (SPEC §9). */
const durationDays = sql<number>`(${assignments.end_on} - ${assignments.start_on} + 1)`;

export const assignmentsResource = declareResource({
  // Its computed columns, typed (server/http/records.ts).
  answer: {
    employee_name: answered.text,
    client_name: answered.text,
    product_name: answered.text,
    duration_days: answered.whole,
  },
  name: "assignments",
  singular: "assignment",
  table: assignments,
  createSchema: assignmentSchema,
  updateSchema: assignmentUpdateSchema,
  sortable: sortableOf("assignments", {
    id: assignments.id,
    start_on: assignments.start_on,
    end_on: assignments.end_on,
    employee_name: employeeName,
    client_name: clientName,
    product_name: productName,
    duration_days: durationDays,
  }),
  defaultSort: { column: "start_on", order: "desc" },
  filters: {
    employee_id: filter.idEquals(assignments.employee_id),
    by_employee: filter.idIn(assignments.employee_id),
    by_client: filter.idIn(assignments.client_id),
    by_product: filter.idIn(assignments.product_catalog_id),
    // The range [from, to] overlaps the assignment's [start_on, end_on].
    from: filter.custom(isoDate(), (from) => gte(assignments.end_on, from)),
    to: filter.custom(isoDate(), (to) => lte(assignments.start_on, to)),
  },
  computed: {
    employee_name: employeeName.as("employee_name"),
    client_name: clientName.as("client_name"),
    product_name: productName.as("product_name"),
    duration_days: durationDays.as("duration_days"),
  },
  // A non-administrator sees the assignments of their own employee (none without one).
  own: (user) => (user.employee ? eq(assignments.employee_id, user.employee.id) : sql`false`),
  beforeWrite: prepareAssignmentWrite,
});
