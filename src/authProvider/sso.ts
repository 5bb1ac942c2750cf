/**
 * Sign-in with Microsoft Entra ID / any OpenID Connect provider, browser side: MSAL
 * (authorization code + PKCE, OIDC protocol mode) takes the user to the provider and back to /sign_in;
 * the ID token it brings back goes to the server (authProvider.login({ id_token })), which verifies it.
 * MSAL is loaded only when the provider is configured and used (dynamic import: not in the first bundle).
 */
import type { IPublicClientApplication } from "@azure/msal-browser";
import { PAGE_PATHS } from "../core/resources";
import type { SsoConfig } from "../core/schemas/session";
import { apiFetch } from "../dataProvider/http";
import { authProvider } from "./index";

export type EnabledSso = Required<SsoConfig>;
const SCOPES = ["openid", "profile", "email"];

/** The server's answer on whether (and with what) to offer the provider's button; none when unreachable. */
export async function ssoConfig(): Promise<EnabledSso | null> {
  try {
    const config = await apiFetch<SsoConfig>("auth/config");
    return config.enabled && config.authority && config.client_id ? (config as EnabledSso) : null;
  } catch {
    return null;
  }
}

let client: Promise<IPublicClientApplication> | null = null;
/** One MSAL client per page (the sign-in page may mount twice; the redirect's answer is read once). */
function msal(config: EnabledSso) {
  client ??= (async () => {
    const { PublicClientApplication } = await import("@azure/msal-browser");
    const app = new PublicClientApplication({
      auth: {
        clientId: config.client_id,
        authority: config.authority,
        // Any provider, not only Microsoft's cloud: MSAL must not look the authority up at Microsoft.
        knownAuthorities: [new URL(config.authority).host],
        redirectUri: `${window.location.origin}${PAGE_PATHS.signIn}`,
        OIDCOptions: { defaultScopes: SCOPES },
      },
      cache: { cacheLocation: "sessionStorage" },
      system: { protocolMode: "OIDC" },
    });
    await app.initialize();
    return app;
  })();
  client.catch(() => {
    client = null;
  });
  return client;
}

/**
 * Sends the browser to the provider's sign-in page (it comes back to /sign_in), with a nonce from the
 * server: the provider puts it in the ID token, and the server accepts a token only with a recent nonce
 * of its own, once.
 */
export async function startSso(config: EnabledSso) {
  const { nonce } = await apiFetch<{ nonce: string }>("auth/nonce");
  await (await msal(config)).loginRedirect({ scopes: SCOPES, nonce });
}

/** Whether this page load is the provider sending the browser back (an authorization response in the URL). */
const isReturn = () => /(^|[#?&])(code|error)=/.test(`${window.location.search}${window.location.hash}`);

let completing: Promise<boolean> | null = null;
/** Whether the sign-in page has a provider's answer to finish (it may mount again while it does). */
export const ssoReturning = () => completing !== null || isReturn();

/**
 * On the way back from the provider: MSAL redeems the code, and its ID token signs in (the server
 * verifies it). True when signed in, false when this page load was no return; once per page load.
 */
export function completeSso(config: EnabledSso): Promise<boolean> {
  completing ??= msal(config)
    .then((app) => app.handleRedirectPromise())
    .then(async (result) => {
      if (!result?.idToken) return false;
      await authProvider.login({ id_token: result.idToken });
      return true;
    });
  return completing;
}
