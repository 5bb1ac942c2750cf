import { z } from "./fields";

export const loginSchema = z.object({
  email: z.string().trim().min(1).max(254),
  password: z.string().min(1).max(200),
});
export type LoginInput = z.infer<typeof loginSchema>;

/** POST /auth/callback: the ID token the browser got from the identity provider (MSAL's `idToken`). */
export const ssoCallbackSchema = z.object({
  id_token: z.string().trim().min(1).max(16_384),
});
export type SsoCallbackInput = z.infer<typeof ssoCallbackSchema>;

/** What the API says about the signed-in user's employee (src/core/session.ts types it from here). */
export const sessionEmployeeAnswer = z.object({
  id: z.number(),
  name: z.string(),
  employee_code: z.string(),
  workspace_id: z.number().nullable(),
  is_active: z.boolean(),
  is_admin_group: z.boolean(),
  is_rape: z.boolean(),
  assignable: z.boolean(),
});
/** What the API says about the signed-in user (POST /sessions, GET /sessions/current). */
export const sessionUserAnswer = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  administrator_role: z.boolean(),
  operator_role: z.boolean(),
  finance_role: z.boolean(),
  can_chat: z.boolean(),
  employee: sessionEmployeeAnswer.nullable(),
});

/**
 * POST /sessions and POST /auth/callback: the session's token (also set as the HttpOnly cookie), the user,
 * whether Google Calendar is connected (only when it is configured) and where the realtime stream is.
 */
export const sessionAnswer = z.object({
  token: z.string(),
  user: sessionUserAnswer,
  google_calendar: z.object({ connected: z.boolean() }).optional(),
  realtime: z.object({ url: z.string() }),
});
export type SessionAnswer = z.infer<typeof sessionAnswer>;

/** GET /sessions/current. */
export const currentSessionAnswer = z.object({ user: sessionUserAnswer });

/** GET /auth/config: whether sign-in with an identity provider is offered, and what the browser needs for it. */
export const ssoConfigAnswer = z.object({
  enabled: z.boolean(),
  authority: z.string().optional(),
  client_id: z.string().optional(),
  button_label: z.string().optional(),
});
export type SsoConfig = z.infer<typeof ssoConfigAnswer>;

/** GET /auth/nonce: the nonce the sign-in page sends the identity provider. */
export const ssoNonceAnswer = z.object({ nonce: z.string() });

/** DELETE /sessions. */
export const signOutAnswer = z.object({ ok: z.boolean() });
