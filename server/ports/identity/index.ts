/**
 * Identity port: sign-in with Microsoft Entra ID or any OpenID Connect provider. The browser
 * signs in at the provider (MSAL, authorization code + PKCE) and posts the ID token it got; this port
 * checks that token against the provider's published keys — signature, issuer, audience, expiry, age
 * and lifetime — and says which account it names (issuer + subject) and the e-mail only when the
 * provider vouches for it. It knows nothing of SIA's users: the sessions module binds the account.
 *
 * Configured with OIDC_AUTHORITY and OIDC_CLIENT_ID; without them the app has no identity port
 * (`app.identity` is null) and the sign-in page shows no button.
 */
import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from "jose";
import type { Config } from "../../config";
import type { Integration } from "../integration";

/** What a verified ID token says about its bearer. */
export interface VerifiedIdentity {
  /** The token's issuer: with `subject`, the account's identity at the provider. */
  issuer: string;
  /** The stable id of the account: Entra's `oid` (the same for every app of the tenant), else `sub`. */
  subject: string;
  /**
   * Lower-cased e-mail, only when the provider vouches for it: `email` with `email_verified: true`
   * (OpenID Connect Core §5.1; Google), or with Entra's `xms_edov: true` (the domain's owner verified it).
   * Never `preferred_username` or `upn`: Entra documents them as display hints, not identifiers.
   */
  email: string | null;
  /** The `nonce` the browser asked the provider to put in the token (checked by the caller). */
  nonce: string | null;
}

/** Why a token was refused: `invalid` (the token's fault: 401) or `unreachable` (the provider's: 503). */
export class IdentityError extends Error {
  constructor(
    readonly reason: "invalid" | "unreachable",
    message: string,
  ) {
    super(message);
  }
}

export interface IdentityPort extends Integration {
  readonly kind: "oidc";
  /** What the browser needs to start the sign-in (GET /auth/config). */
  readonly authority: string;
  readonly clientId: string;
  readonly buttonLabel: string;
  verify(idToken: string): Promise<VerifiedIdentity>;
  /** Origins the sign-in page fetches from (CSP connect-src): the authority's, and the token endpoint's once known. */
  connectOrigins(): string[];
}

interface Discovery {
  issuer: string;
  jwks_uri: string;
  token_endpoint?: string;
}

/** Asymmetric algorithms only: never `none`, never a shared secret. */
const ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"];
const TIMEOUT_MS = 5000;
/** Tokens longer than this are not ID tokens (Entra's are a few KB). */
const MAX_TOKEN_LENGTH = 16_384;
/** An ID token is redeemed right after it is issued: one issued longer ago than this is refused. */
export const MAX_TOKEN_AGE_SECONDS = 10 * 60;
/** Nor is a token that claims to live longer than this (Entra's live 60–90 minutes). */
export const MAX_TOKEN_LIFETIME_SECONDS = 24 * 60 * 60;

export class OidcIdentity implements IdentityPort {
  readonly kind = "oidc";
  private discovery: Promise<{ issuer: string; keys: ReturnType<typeof createRemoteJWKSet> }> | null = null;
  private tokenOrigin: string | null = null;

  constructor(
    readonly authority: string,
    readonly clientId: string,
    readonly buttonLabel: string,
  ) {}

  /** The discovery document and its key set, fetched once (again after a failure). */
  private provider() {
    if (!this.discovery) {
      const found = fetchDiscovery(this.authority).then((discovery) => {
        this.tokenOrigin = originOf(discovery.token_endpoint);
        return {
          issuer: discovery.issuer,
          keys: createRemoteJWKSet(new URL(discovery.jwks_uri), { timeoutDuration: TIMEOUT_MS, cooldownDuration: 30_000 }),
        };
      });
      this.discovery = found;
      found.catch(() => {
        if (this.discovery === found) this.discovery = null;
      });
    }
    return this.discovery;
  }

  async verify(idToken: string): Promise<VerifiedIdentity> {
    if (typeof idToken !== "string" || !idToken || idToken.length > MAX_TOKEN_LENGTH) {
      throw new IdentityError("invalid", "sin token");
    }
    const { issuer, keys } = await this.provider().catch((error: Error) => {
      throw error instanceof IdentityError ? error : new IdentityError("unreachable", error.message);
    });
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(idToken, keys, {
        issuer,
        audience: this.clientId,
        algorithms: ALGORITHMS,
        clockTolerance: 60,
        maxTokenAge: MAX_TOKEN_AGE_SECONDS,
        requiredClaims: ["exp", "iat", "sub"],
      }));
    } catch (error) {
      // The provider's fault (its key set did not answer) is not the token's.
      if (error instanceof errors.JWKSTimeout || !(error instanceof errors.JOSEError)) {
        throw new IdentityError("unreachable", `claves del proveedor: ${(error as Error).message}`);
      }
      throw new IdentityError("invalid", (error as Error).message);
    }
    // Several audiences: the token must have been issued to SIA (OIDC Core §3.1.3.7).
    if (Array.isArray(payload.aud) && payload.aud.length > 1 && payload.azp !== this.clientId) {
      throw new IdentityError("invalid", "azp no corresponde");
    }
    if ((payload.exp as number) - (payload.iat as number) > MAX_TOKEN_LIFETIME_SECONDS) {
      throw new IdentityError("invalid", "vigencia del token demasiado larga");
    }
    const vouched = payload.email_verified === true || payload.xms_edov === true;
    const email = vouched && typeof payload.email === "string" && payload.email.includes("@") ? payload.email : null;
    const oid = typeof payload.oid === "string" && payload.oid ? payload.oid : null;
    // The account's stable id: without one (no oid, no sub) nobody can be bound to it.
    if (!oid && !(typeof payload.sub === "string" && payload.sub)) throw new IdentityError("invalid", "sin sub ni oid");
    return {
      issuer,
      // Tagged with the claim it came from: an `oid` and a `sub` of equal text are different accounts.
      subject: (oid ? `oid:${oid}` : `sub:${payload.sub}`).slice(0, 255),
      email: email ? email.trim().toLowerCase() : null,
      nonce: typeof payload.nonce === "string" ? payload.nonce : null,
    };
  }

  connectOrigins(): string[] {
    const origins = new Set([new URL(this.authority).origin]);
    if (this.tokenOrigin) origins.add(this.tokenOrigin);
    return [...origins];
  }

  /** Reaches the provider as a sign-in would: its discovery document. */
  async check(): Promise<void> {
    this.discovery = null;
    await this.provider();
  }
}

async function fetchDiscovery(authority: string): Promise<Discovery> {
  const url = `${authority}/.well-known/openid-configuration`;
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS), headers: { accept: "application/json" } });
  } catch (error) {
    throw new IdentityError(
      "unreachable",
      `No se pudo contactar al proveedor de identidad (${url}): ${(error as Error).message}`,
    );
  }
  const body = (await response.json().catch(() => null)) as Partial<Discovery> | null;
  if (!response.ok || typeof body?.issuer !== "string" || typeof body.jwks_uri !== "string") {
    throw new IdentityError("unreachable", `El proveedor de identidad respondió ${response.status} en ${url}`);
  }
  return {
    issuer: body.issuer,
    jwks_uri: body.jwks_uri,
    token_endpoint: typeof body.token_endpoint === "string" ? body.token_endpoint : undefined,
  };
}

function originOf(url: string | undefined): string | null {
  try {
    return url ? new URL(url).origin : null;
  } catch {
    return null;
  }
}

/** The identity provider of this installation, or null when SSO is not configured. */
export function createIdentity(config: Config): IdentityPort | null {
  if (!config.OIDC_AUTHORITY || !config.OIDC_CLIENT_ID) return null;
  return new OidcIdentity(config.OIDC_AUTHORITY, config.OIDC_CLIENT_ID, config.OIDC_BUTTON_LABEL);
}
