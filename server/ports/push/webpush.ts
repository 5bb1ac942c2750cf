/**
 * The `web-push` adapter. web-push builds the request (aes128gcm payload, VAPID JWT `Authorization:
 * vapid t=…, k=…`, TTL); we send it with fetch, only to an endpoint of the allow-list (./endpoint.ts),
 * never following a redirect, within PUSH_TIMEOUT_MS.
 */
import { sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { DEFAULT_PUSH_HOSTS, pushEndpointAllowed } from "./endpoint";
import type { PushPayload, PushPort, PushResult, PushTarget } from "./port";

export const VAPID_KEY_NAME = "vapid";
/** Seconds a push service keeps an undelivered message. */
export const PUSH_TTL_SECONDS = 24 * 60 * 60;

interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** web-push (and its crypto helpers) is loaded on first use, not at start. */
const loadWebPush = async () => (await import("web-push")).default;

/** The stored key pair, made on first use; concurrent first starts keep the one that was inserted first. */
export async function vapidKeys(database: Database): Promise<VapidKeys> {
  const fresh = (await loadWebPush()).generateVAPIDKeys();
  await database.rows(
    sql`insert into app_keys (name, value) values (${VAPID_KEY_NAME}, ${JSON.stringify(fresh)}::jsonb) on conflict (name) do nothing`,
  );
  const [row] = await database.rows<{ value: VapidKeys | string }>(
    sql`select value from app_keys where name = ${VAPID_KEY_NAME}`,
  );
  const value = typeof row.value === "string" ? (JSON.parse(row.value) as VapidKeys) : row.value;
  return value;
}

export class PushError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class WebPush implements PushPort {
  readonly kind = "webpush" as const;
  private keys?: Promise<VapidKeys>;

  constructor(
    private readonly database: Database,
    private readonly subject: string,
    private readonly allowedHosts: readonly string[] = DEFAULT_PUSH_HOSTS,
    private readonly timeoutMs = 5000,
  ) {}

  allows(endpoint: string): boolean {
    return pushEndpointAllowed(endpoint, this.allowedHosts);
  }

  private loadKeys(): Promise<VapidKeys> {
    this.keys ??= vapidKeys(this.database).catch((error) => {
      this.keys = undefined;
      throw error;
    });
    return this.keys;
  }

  async publicKey(): Promise<string> {
    return (await this.loadKeys()).publicKey;
  }

  async send(subscription: PushTarget, payload: PushPayload): Promise<PushResult> {
    // Rows saved before the allow-list existed are never contacted: they count as gone and are removed.
    if (!this.allows(subscription.endpoint)) return "gone";
    const keys = await this.loadKeys();
    const webpush = await loadWebPush();
    const details = webpush.generateRequestDetails(subscription, JSON.stringify(payload), {
      vapidDetails: { subject: this.subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
      TTL: PUSH_TTL_SECONDS,
      contentEncoding: "aes128gcm",
    });
    const response = await fetch(details.endpoint, {
      method: details.method,
      headers: details.headers as Record<string, string>,
      body: details.body ? new Uint8Array(details.body) : undefined,
      signal: AbortSignal.timeout(this.timeoutMs),
      // A redirect would take the request to an address nobody checked.
      redirect: "manual",
    });
    await response.arrayBuffer().catch(() => undefined);
    if (response.status === 404 || response.status === 410) return "gone";
    if (response.status < 200 || response.status >= 300)
      throw new PushError(response.status, `El servicio de notificaciones respondió ${response.status}`);
    return "sent";
  }

  /** The key pair exists (made now if it did not) and can sign a VAPID header. */
  async check(): Promise<void> {
    try {
      const keys = await this.loadKeys();
      const webpush = await loadWebPush();
      webpush.getVapidHeaders("https://push.example.com", this.subject, keys.publicKey, keys.privateKey, "aes128gcm");
    } catch (error) {
      throw new Error(`Las claves VAPID no están disponibles: ${(error as Error).message}`);
    }
  }
}
