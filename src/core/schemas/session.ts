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

/** GET /auth/config: whether sign-in with an identity provider is offered, and what the browser needs for it. */
export interface SsoConfig {
  enabled: boolean;
  authority?: string;
  client_id?: string;
  button_label?: string;
}
