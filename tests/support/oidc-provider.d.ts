/**
 * The little of `oidc-provider` (v8, no types of its own) the e2e test uses: a provider, its request
 * handler, and the Grant model of its configuration hooks.
 */
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  export interface KoaContextWithOIDC {
    oidc: {
      provider: { Grant: new (options: { clientId: string; accountId: string }) => Grant };
      client?: { clientId: string };
      session?: { accountId?: string };
    };
  }
  export interface Account {
    accountId: string;
    claims(): Record<string, unknown> | Promise<Record<string, unknown>>;
  }
  export interface Configuration {
    clients?: Array<Record<string, unknown>>;
    pkce?: { required?: () => boolean };
    clientBasedCORS?: (ctx: KoaContextWithOIDC, origin: string, client: unknown) => boolean;
    findAccount?: (ctx: KoaContextWithOIDC, id: string) => Account | undefined | Promise<Account | undefined>;
    claims?: Record<string, string[]>;
    conformIdTokenClaims?: boolean;
    loadExistingGrant?: (ctx: KoaContextWithOIDC) => Promise<Grant | undefined>;
    features?: Record<string, { enabled: boolean }>;
    cookies?: { keys?: string[] };
    [key: string]: unknown;
  }
  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
  }
}
