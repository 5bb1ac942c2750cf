/** What the API says about the signed-in user (POST /sessions, GET /sessions/current). */
export interface SessionEmployee {
  id: number;
  name: string;
  employee_code: string;
  workspace_id: number | null;
  is_active: boolean;
  is_admin_group: boolean;
  is_rape: boolean;
  assignable: boolean;
}
export interface SessionUser {
  id: number;
  name: string;
  email: string;
  administrator_role: boolean;
  operator_role: boolean;
  finance_role: boolean;
  can_chat: boolean;
  employee: SessionEmployee | null;
}
export const SESSION_COOKIE = "sia_session";
export const TOKEN_PREFIX = "thoth_";
