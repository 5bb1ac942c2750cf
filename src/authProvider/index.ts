/**
 * Sign-in with e-mail and password (the session is an HttpOnly cookie the browser keeps), the signed-in
 * user cached as `apiUser` (SPEC §3 session data), and access control from the same permission matrix
 * the server enforces (src/core/permissions.ts).
 */
import type { AuthProvider } from "react-admin";
import { messages } from "../core/messages";
import { type Action, canAccess as matrixAllows } from "../core/permissions";
import { apiResourceOf, PAGE_PATHS } from "../core/resources";
import type { SessionUser } from "../core/session";
import { apiFetch } from "../dataProvider/http";

const STORAGE_KEY = "apiUser";
export const SIGN_IN_NOTICE_KEY = "sia:signInNotice";
let current: SessionUser | null = null;

function read(): SessionUser | null {
  if (current) return current;
  try {
    const stored = sessionStorage.getItem(STORAGE_KEY);
    current = stored ? (JSON.parse(stored) as SessionUser) : null;
  } catch {
    current = null;
  }
  return current;
}

function remember(user: SessionUser | null) {
  current = user;
  if (user) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(user));
  else sessionStorage.removeItem(STORAGE_KEY);
}

export const getApiUser = read;

async function fetchCurrent(): Promise<SessionUser | null> {
  try {
    const { user } = await apiFetch<{ user: SessionUser }>("sessions/current");
    remember(user);
    return user;
  } catch {
    remember(null);
    return null;
  }
}

/** react-admin action names → the matrix's. */
const ACTIONS: Record<string, Action> = { edit: "update", clone: "create" };

export const authProvider: AuthProvider = {
  async login({ email, password }: { email: string; password: string }) {
    try {
      const { user } = await apiFetch<{ user: SessionUser }>("sessions", { method: "POST", body: { email, password } });
      remember(user);
    } catch (error) {
      const status = (error as { status?: number }).status;
      if (status === 401) throw new Error(messages.invalidCredentials);
      throw error;
    }
    return { redirectTo: PAGE_PATHS.activities };
  },
  async logout() {
    const hadUser = Boolean(read());
    remember(null);
    if (hadUser) await apiFetch("sessions", { method: "DELETE" }).catch(() => undefined);
    return PAGE_PATHS.signIn;
  },
  async checkAuth() {
    if (read()) return;
    if (await fetchCurrent()) return;
    // No message: going to the sign-in page is enough when nobody had signed in.
    throw { redirectTo: PAGE_PATHS.signIn, message: false };
  },
  async checkError(error) {
    if (error?.status === 401) {
      remember(null);
      // The sign-in page is outside react-admin: it shows this notice (SPEC §8: toast "Sin Autenticación").
      sessionStorage.setItem(SIGN_IN_NOTICE_KEY, messages.unauthenticated);
      throw { redirectTo: PAGE_PATHS.signIn, message: messages.unauthenticated, logoutUser: true };
    }
    // 403 and others: stay; the failed call's own toast says what happened ("Error de Permisos").
  },
  async getIdentity() {
    const user = read() ?? (await fetchCurrent());
    if (!user) throw new Error(messages.unauthenticated);
    return { id: user.id, fullName: user.name };
  },
  async getPermissions() {
    return read() ?? (await fetchCurrent());
  },
  async canAccess({ resource, action }) {
    const user = read() ?? (await fetchCurrent());
    return matrixAllows({ user, resource: apiResourceOf(resource), action: ACTIONS[action] ?? (action as Action) });
  },
};
