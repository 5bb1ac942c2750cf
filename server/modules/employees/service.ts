/** Rules of employee writes: default workspace, one employee per user, deactivation signs out. */
import { and, eq, ne } from "drizzle-orm";
import { messages } from "../../../src/core/messages";
import type { employeeSchema, employeeUpdateSchema } from "../../../src/core/schemas/employee";
import { app_settings, employees, sessions } from "../../db/schema";
import { ValidationError } from "../../http/errors";
import type { RequestContext, ResourceRecord, WriteArgs } from "../../http/resource";
import { assertAdministratorRemains } from "../users";

type EmployeeRecord = ResourceRecord<typeof employees>;

export async function prepareEmployeeWrite(
  ...[values, ctx, existing]: WriteArgs<typeof employees, typeof employeeSchema, typeof employeeUpdateSchema>
) {
  // A new employee with no workspace chosen (absent, '' or null) goes to the firm's default
  // workspace of app_settings; with no default configured it has none.
  if (!existing && (values.workspace_id === undefined || values.workspace_id === null)) {
    const [settings] = await ctx.db.select({ workspace: app_settings.default_workspace_id }).from(app_settings).limit(1);
    values.workspace_id = settings?.workspace ?? null;
  }
  const userId = values.user_id === undefined ? (existing?.user_id ?? null) : values.user_id;
  const isActive = values.is_active ?? existing?.is_active ?? true;
  // Deactivating or unlinking one's own employee ends one's own sessions at once (an inactive employee's
  // sessions stop working): the administrator would lock themselves out mid-save. Another one must do it.
  if (existing && existing.user_id === ctx.user.id && (!isActive || userId !== existing.user_id)) {
    throw ValidationError.base(messages.ownEmployeeDeactivation);
  }
  const linking = userId !== null && userId !== (existing?.user_id ?? null);
  if (linking) {
    // Decision: a user may be LINKED only to an active employee (an inactive employee cannot sign
    // in, so the link would be useless and hides a mistake). Deactivating an employee that already
    // has a user is the normal way out and stays allowed: it signs that user out (afterWrite).
    if (!isActive) throw ValidationError.field("user_id", messages.inactiveEmployeeLink);
    const [taken] = await ctx.db
      .select({ id: employees.id })
      .from(employees)
      .where(and(eq(employees.user_id, userId), existing ? ne(employees.id, existing.id) : undefined))
      .limit(1);
    if (taken) throw ValidationError.field("user_id", messages.userAlreadyLinked);
  }
  return values;
}

/** An employee deactivated (or unlinked) loses every session of their user. */
export async function afterEmployeeWrite(saved: EmployeeRecord, ctx: RequestContext, existing: EmployeeRecord | null) {
  if (!existing?.user_id) return;
  const deactivated = existing.is_active && !saved.is_active;
  const unlinked = saved.user_id !== existing.user_id;
  if (deactivated || unlinked) await ctx.db.delete(sessions).where(eq(sessions.user_id, existing.user_id));
  // An inactive employee's user cannot sign in: it may have been the last administrator.
  if (deactivated) await assertAdministratorRemains(ctx.db, "is_active");
}
