import type { z } from "zod";
import type { sessionEmployeeAnswer, sessionUserAnswer } from "./schemas/session";

/** What the API says about the signed-in user (POST /sessions, GET /sessions/current): schemas/session.ts. */
export type SessionEmployee = z.infer<typeof sessionEmployeeAnswer>;
export type SessionUser = z.infer<typeof sessionUserAnswer>;

export const SESSION_COOKIE = "sia_session";

/**
 * Every authenticated answer carries the stamp of the user as the server read it for that request (roles,
 * can_chat, employee). The browser compares it with the user it keeps (sessionStorage `apiUser`) and reads
 * the session again when they differ: a change an administrator makes takes effect at the user's next
 * request, not at their next sign-in.
 */
export const SESSION_STAMP_HEADER = "x-sia-session";
export function sessionStamp(user: SessionUser): string {
  const flag = (value: boolean | null | undefined) => (value ? "1" : "0");
  const e = user.employee;
  return [
    user.id,
    flag(user.administrator_role) + flag(user.operator_role) + flag(user.finance_role) + flag(user.can_chat),
    e
      ? [e.id, e.workspace_id ?? "", flag(e.is_active), flag(e.is_admin_group), flag(e.is_rape), flag(e.assignable)].join(".")
      : "",
    encodeURIComponent(user.name),
  ].join(":");
}
export const TOKEN_PREFIX = "thoth_";
