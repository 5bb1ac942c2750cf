import { and, eq, ne, sql } from "drizzle-orm";
import { messages } from "../../../src/core/messages";
import { estimatedWorkHourSchema, estimatedWorkHourUpdateSchema } from "../../../src/core/schemas/estimated_work_hour";
import { employee_positions, estimated_work_hours, projects } from "../../db/schema";
import { sortableOf } from "../../http/columns";
import { ValidationError } from "../../http/errors";
import { answered } from "../../http/records";
import { declareResource, filter } from "../../http/resource";
import { outer } from "../../http/sql";

const positionName = sql<
  string | null
>`(select ${employee_positions.name} from ${employee_positions} where ${employee_positions.id} = ${sql.raw('"estimated_work_hours"."employee_position_id"')})`;

export const estimatedWorkHoursResource = declareResource({
  // Its computed columns, typed (server/http/records.ts).
  answer: {
    employee_position_name: answered.text,
  },
  name: "estimated_work_hours",
  singular: "estimated_work_hour",
  table: estimated_work_hours,
  createSchema: estimatedWorkHourSchema,
  updateSchema: estimatedWorkHourUpdateSchema,
  sortable: sortableOf("estimated_work_hours", {
    id: estimated_work_hours.id,
    estimated_hours: estimated_work_hours.estimated_hours,
    employee_position_name: positionName,
    created_at: estimated_work_hours.created_at,
  }),
  defaultSort: { column: "id", order: "asc" },
  filters: { project_id: filter.idEquals(estimated_work_hours.project_id) },
  // An Operador reads the estimated hours of the projects they lead (PM or responsible; decision 029).
  own: (user) =>
    user.employee
      ? sql`${outer(estimated_work_hours.project_id)} in (select ${outer(projects.id)} from ${projects} where ${outer(projects.pm_id)} = ${user.employee.id} or ${outer(projects.rape_id)} = ${user.employee.id})`
      : sql`false`,
  computed: { employee_position_name: positionName.as("employee_position_name") },
  async beforeWrite(values, ctx, existing) {
    // One row per (project, position): say so on the position field rather than a bare constraint name.
    const [projectId, positionId] = existing
      ? [values.project_id ?? existing.project_id, values.employee_position_id ?? existing.employee_position_id]
      : [values.project_id, values.employee_position_id];
    const [taken] = await ctx.db
      .select({ id: estimated_work_hours.id })
      .from(estimated_work_hours)
      .where(
        and(
          eq(estimated_work_hours.project_id, projectId),
          eq(estimated_work_hours.employee_position_id, positionId),
          existing ? ne(estimated_work_hours.id, existing.id) : undefined,
        ),
      )
      .limit(1);
    if (taken) throw ValidationError.field("employee_position_id", messages.estimatedHoursTaken);
    return values;
  },
});
