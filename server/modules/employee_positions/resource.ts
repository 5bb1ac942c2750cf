import { sql } from "drizzle-orm";
import { messages } from "../../../src/core/messages";
import { employeePositionSchema, employeePositionUpdateSchema } from "../../../src/core/schemas/employee_position";
import { employee_positions, employees, estimated_work_hours } from "../../db/schema";
import { searchOf, sortableOf } from "../../http/columns";
import { answered } from "../../http/records";
import { declareResource } from "../../http/resource";
import { outer } from "../../http/sql";

const employeesCount = sql<number>`(select count(*)::int from ${employees} where ${employees.employee_position_id} = ${outer(employee_positions.id)})`;

export const employeePositionsResource = declareResource({
  // Its computed columns, typed (server/http/records.ts).
  answer: {
    employees_count: answered.whole,
  },
  name: "employee_positions",
  singular: "employee_position",
  table: employee_positions,
  createSchema: employeePositionSchema,
  updateSchema: employeePositionUpdateSchema,
  search: searchOf("employee_positions", { name: employee_positions.name }),
  sortable: sortableOf("employee_positions", {
    id: employee_positions.id,
    name: employee_positions.name,
    employees_count: employeesCount,
  }),
  defaultSort: { column: "name", order: "asc" },
  computed: { employees_count: employeesCount.as("employees_count") },
  deleteGuards: [
    async (id, db) => {
      const [used] = await db
        .select({
          employees: sql<number>`(select count(*)::int from ${employees} where ${employees.employee_position_id} = ${id})`,
          hours: sql<number>`(select count(*)::int from ${estimated_work_hours} where ${estimated_work_hours.employee_position_id} = ${id})`,
        })
        .from(sql`(select 1) as one`);
      return used && (used.employees > 0 || used.hours > 0) ? messages.positionInUse(used.employees, used.hours) : null;
    },
  ],
});
