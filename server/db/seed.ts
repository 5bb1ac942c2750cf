// TEMPORARY (replaced by the seed branch): reference data and the three demo accounts.
import { sql } from "drizzle-orm";
import { ACTIVITY_TYPES } from "../../src/core/constants";
import { hashPassword } from "../modules/sessions/service";
import type { Db } from "./client";
import { activity_type_catalogs, app_settings, employees, users } from "./schema";

export const DEMO_ACCOUNTS = [
  { email: "admin@sia.local", role: "Administrador" },
  { email: "operador@sia.local", role: "Operador" },
  { email: "finanzas@sia.local", role: "Finanzas" },
];
export async function seedBase(db: Db) {
  await db.insert(activity_type_catalogs).values(ACTIVITY_TYPES.map((t) => ({ id: t.id, code: t.code, name: t.name }))).onConflictDoNothing();
  await db.insert(app_settings).values({ id: 1 }).onConflictDoNothing();
}
export async function seedDemo(db: Db, { password }: { password: string }) {
  const [{ n }] = (await db.execute(sql`select count(*)::int as n from users`)).rows as { n: number }[];
  if (n > 0) return false;
  const digest = await hashPassword(password);
  for (const [email, flag] of [["admin@sia.local", "administrator_role"], ["operador@sia.local", "operator_role"], ["finanzas@sia.local", "finance_role"]] as const) {
    const [u] = await db.insert(users).values({ name: email.split("@")[0], email, password_digest: digest, [flag]: true }).returning();
    await db.insert(employees).values({ name: u.name, user_id: u.id, employee_code: `D${u.id}` });
  }
  return true;
}
