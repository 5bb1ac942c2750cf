/**
 * Sign-in with e-mail and password or an identity provider's ID token (the session is an HttpOnly cookie the browser keeps), the signed-in
 * user cached as `apiUser` (SPEC §3 session data), and access control from the same permission matrix
 * the server enforces (src/core/permissions.ts).
 */
import type { AuthProvider } from "react-admin";
import { messages } from "../core/messages";
import { type Action, canAccess as matrixAllows } from "../core/permissions";
import { apiResourceOf, PAGE_PATHS } from "../core/resources";
import { type SessionUser, sessionStamp } from "../core/session";
import { listen } from "../dataProvider/events";
import { apiFetch } from "../dataProvider/http";
import { queryClient } from "../queryClient";

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

/**
 * Until when a 401 from sessions/current stands: the checks react-admin makes one after another on a
 * signed-out visit (checkAuth, the identity, the permissions, the sign-in page's own) take that answer
 * instead of asking again each. Short, so a sign-in in another tab is seen on the next navigation.
 */
let signedOutUntil = 0;
const SIGNED_OUT_FOR_MS = 3_000;

function remember(user: SessionUser | null) {
  current = user;
  if (user) signedOutUntil = 0;
  if (user) sessionStorage.setItem(STORAGE_KEY, JSON.stringify(user));
  else sessionStorage.removeItem(STORAGE_KEY);
}

let asking: Promise<SessionUser | null> | null = null;
/** GET sessions/current, once at a time: the checks react-admin makes together share one request. */
function fetchCurrent(): Promise<SessionUser | null> {
  if (Date.now() < signedOutUntil) return Promise.resolve(null);
  asking ??= apiFetch<{ user: SessionUser }>("sessions/current")
    .then(
      ({ user }) => {
        remember(user);
        return user;
      },
      (error: { status?: number }) => {
        remember(null);
        if (error?.status === 401) signedOutUntil = Date.now() + SIGNED_OUT_FOR_MS;
        return null;
      },
    )
    .finally(() => {
      asking = null;
    });
  return asking;
}

/**
 * An answer says the user changed since we kept them (an administrator changed their roles or can_chat):
 * read the session again, and let react-admin ask its permission questions anew (menus, buttons, board).
 */
if (typeof window !== "undefined") {
  listen("sia:session-stamp", ({ stamp }) => {
    const kept = read();
    if (!kept || asking || sessionStamp(kept) === stamp) return;
    void fetchCurrent().then((user) => {
      if (user) void queryClient.invalidateQueries({ queryKey: ["auth"] });
    });
  });
}

/** react-admin action names → the matrix's. */
const ACTIONS: Record<string, Action> = { edit: "update", clone: "create" };

export const authProvider: AuthProvider = {
  /** E-mail and password, or the ID token an identity provider gave (src/authProvider/sso.ts): one session either way. */
  async login(credentials: { email: string; password: string } | { id_token: string }) {
    try {
      const { user } =
        "id_token" in credentials
          ? await apiFetch<{ user: SessionUser }>("auth/callback", { method: "POST", body: { id_token: credentials.id_token } })
          : await apiFetch<{ user: SessionUser }>("sessions", {
              method: "POST",
              body: { email: credentials.email, password: credentials.password },
            });
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
