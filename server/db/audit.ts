/** Field-level audit trail (audit_logs): who, when, old → new, with the comment that justified it. */
import { and, asc, eq } from "drizzle-orm";
import type { Tx } from "./client";
import { audit_logs, users } from "./schema";

export type AuditableType = "Project" | "Invoice" | "Quotation" | "WeekReview";

const text = (v: unknown) => (v === null || v === undefined ? null : String(v));

export interface AuditChange {
  field: string;
  old: unknown;
  new: unknown;
}

/** Writes one row per field that really changed. Must run inside the write's transaction. */
export async function audit(
  db: Tx,
  target: { type: AuditableType; id: number },
  changes: AuditChange[],
  meta: { userId: number | null; comment?: string | null },
) {
  const rows = changes
    .filter((c) => text(c.old) !== text(c.new))
    .map((c) => ({
      auditable_type: target.type,
      auditable_id: target.id,
      field: c.field,
      old_value: text(c.old),
      new_value: text(c.new),
      comment: meta.comment ?? null,
      user_id: meta.userId,
    }));
  if (rows.length) await db.insert(audit_logs).values(rows);
  return rows.length;
}

/** The trail of one record, oldest first, with the user's name (null = the system). */
export function auditTrail(db: Tx, type: AuditableType, id: number) {
  return db
    .select({
      id: audit_logs.id,
      field: audit_logs.field,
      old_value: audit_logs.old_value,
      new_value: audit_logs.new_value,
      comment: audit_logs.comment,
      user_id: audit_logs.user_id,
      user_name: users.name,
      created_at: audit_logs.created_at,
    })
    .from(audit_logs)
    .leftJoin(users, eq(users.id, audit_logs.user_id))
    .where(and(eq(audit_logs.auditable_type, type), eq(audit_logs.auditable_id, id)))
    .orderBy(asc(audit_logs.created_at), asc(audit_logs.id));
}
