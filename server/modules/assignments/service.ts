/** Rules of assignments (SPEC §2 assignment form, §5): enforced here, not only by the form. */
import { eq } from "drizzle-orm";
import { messages } from "../../../src/core/messages";
import type { assignmentSchema, assignmentUpdateSchema } from "../../../src/core/schemas/assignment";
import { businessToday } from "../../../src/core/week";
import type { Tx } from "../../db/client";
import { type assignments, client_product_catalogs, employees } from "../../db/schema";
import { ValidationError } from "../../http/errors";
import type { WriteArgs } from "../../http/resource";

async function checkEmployee(db: Tx, employeeId: number) {
  const [employee] = await db
    .select({ is_active: employees.is_active, assignable: employees.assignable })
    .from(employees)
    .where(eq(employees.id, employeeId))
    .limit(1);
  if (!employee) throw ValidationError.field("employee_id", messages.invalidReference);
  if (!employee.is_active) throw ValidationError.field("employee_id", messages.employeeInactive);
  if (!employee.assignable) throw ValidationError.field("employee_id", messages.employeeNotAssignable);
}

async function checkClientProduct(db: Tx, clientId: number, productId: number) {
  const products = await db
    .select({ id: client_product_catalogs.product_catalog_id })
    .from(client_product_catalogs)
    .where(eq(client_product_catalogs.client_id, clientId));
  if (products.length === 0) throw ValidationError.base(messages.clientProductsMissing);
  if (!products.some((p) => p.id === productId)) throw ValidationError.field("product_catalog_id", messages.productNotOfClient);
}

/**
 * Create checks everything. Update re-checks the employee only when it changes (an assignment whose
 * employee later left can still get its end date corrected) and the client/product pair when either
 * changes. A date already reached (start or end <= today in Mexico City) cannot change; sending the
 * same value back is fine (the form omits a locked start date, but the API may echo it).
 */
export async function prepareAssignmentWrite(
  ...[values, ctx, existing]: WriteArgs<typeof assignments, typeof assignmentSchema, typeof assignmentUpdateSchema>
) {
  // Zod leaves out the fields an update does not carry (never undefined or null): those keep the stored value.
  const merged = existing
    ? {
        employee_id: values.employee_id ?? existing.employee_id,
        client_id: values.client_id ?? existing.client_id,
        product_catalog_id: values.product_catalog_id ?? existing.product_catalog_id,
        start_on: values.start_on ?? existing.start_on,
        end_on: values.end_on ?? existing.end_on,
      }
    : values;
  const changed = (key: "start_on" | "end_on" | "employee_id" | "client_id" | "product_catalog_id") =>
    !existing || (values[key] !== undefined && values[key] !== existing[key]);
  if (existing) {
    const today = businessToday();
    if (changed("start_on") && existing.start_on <= today) {
      throw ValidationError.field("start_on", messages.dateAlreadyReached);
    }
    if (changed("end_on") && existing.end_on <= today) {
      throw ValidationError.field("end_on", messages.dateAlreadyReached);
    }
    if (merged.end_on < merged.start_on) throw ValidationError.field("end_on", messages.endBeforeStart);
  }
  if (changed("employee_id")) await checkEmployee(ctx.db, merged.employee_id);
  if (changed("client_id") || changed("product_catalog_id")) {
    await checkClientProduct(ctx.db, merged.client_id, merged.product_catalog_id);
  }
  return values;
}
