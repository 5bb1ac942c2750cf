import { eq, sql } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { z } from "zod";
import { messages } from "../../../src/core/messages";
import { employeeSchema, employeeUpdateSchema } from "../../../src/core/schemas/employee";
import { employee_positions, employees, projects, users, workspaces } from "../../db/schema";
import { searchOf, sortableOf } from "../../http/columns";
import { answered } from "../../http/records";
import { declareResource, filter } from "../../http/resource";
import { outer } from "../../http/sql";
import { afterEmployeeWrite, prepareEmployeeWrite } from "./service";

const userEmail = sql<string | null>`(select ${users.email} from ${users} where ${users.id} = ${outer(employees.user_id)})`;
const workspaceName = sql<
  string | null
>`(select ${workspaces.name} from ${workspaces} where ${workspaces.id} = ${outer(employees.workspace_id)})`;
const positionName = sql<
  string | null
>`(select ${employee_positions.name} from ${employee_positions} where ${employee_positions.id} = ${outer(employees.employee_position_id)})`;

/**
 * true/false filters. The lists send them bare (`true`) or as the JSON arrays of SPEC §7
 * (`["true"]`, `[true]`); an array holding both values means no filter.
 */
const boolValues = z.preprocess(
  (v) => {
    if (typeof v !== "string") return v;
    try {
      const parsed = JSON.parse(v);
      return (Array.isArray(parsed) ? parsed : [parsed]).map(String);
    } catch {
      return v.split(",");
    }
  },
  z.array(z.enum(["true", "false", "1", "0"], { error: messages.invalidValue })).max(2),
);
const oneBool = (values: string[]) => {
  const set = new Set(values.map((v) => v === "true" || v === "1"));
  return set.size === 1 ? set.has(true) : undefined;
};
const boolFilter = (column: PgColumn) =>
  filter.custom(boolValues, (values) => {
    const value = oneBool(values);
    return value === undefined ? undefined : eq(column, value);
  });
const isPm = sql`exists (select 1 from ${projects} where ${projects.pm_id} = ${outer(employees.id)})`;

export const employeesResource = declareResource({
  // Its computed columns, typed (server/http/records.ts).
  answer: {
    user_email: answered.text,
    workspace_name: answered.text,
    employee_position_name: answered.text,
  },
  name: "employees",
  singular: "employee",
  table: employees,
  createSchema: employeeSchema,
  updateSchema: employeeUpdateSchema,
  search: searchOf("employees", { name: employees.name, employee_code: employees.employee_code }),
  sortable: sortableOf("employees", {
    id: employees.id,
    name: employees.name,
    employee_code: employees.employee_code,
    is_active: employees.is_active,
    assignable: employees.assignable,
    is_rape: employees.is_rape,
    user_email: userEmail,
    workspace_name: workspaceName,
    employee_position_name: positionName,
    created_at: employees.created_at,
  }),
  defaultSort: { column: "name", order: "asc" },
  filters: {
    is_active: boolFilter(employees.is_active),
    by_status: boolFilter(employees.is_active),
    assignable: boolFilter(employees.assignable),
    by_rape: boolFilter(employees.is_rape),
    by_pm: filter.custom(boolValues, (values) => {
      const value = oneBool(values);
      return value === undefined ? undefined : value ? isPm : sql`not ${isPm}`;
    }),
    by_workspace: filter.idIn(employees.workspace_id),
    workspace_id: filter.idEquals(employees.workspace_id),
    by_employee_position: filter.idIn(employees.employee_position_id),
  },
  computed: {
    user_email: userEmail.as("user_email"),
    workspace_name: workspaceName.as("workspace_name"),
    employee_position_name: positionName.as("employee_position_name"),
  },
  own: (user) => eq(employees.user_id, user.id),
  beforeWrite: prepareEmployeeWrite,
  afterWrite: afterEmployeeWrite,
});
