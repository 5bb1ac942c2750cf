/**
 * The push port: SIA sends Web Push notifications (RFC 8030, payloads encrypted per RFC 8291, VAPID per
 * RFC 8292) through it and nothing else. One adapter, `web-push`, with a VAPID key pair made on first
 * start and kept in the database (app_keys), so every server process signs with the same keys.
 */
import type { Integration } from "../integration";

export interface PushSubscriptionKeys {
  p256dh: string;
  auth: string;
}

export interface PushTarget {
  endpoint: string;
  keys: PushSubscriptionKeys;
}

/** What the service worker (public/sw.js) receives and shows. */
export interface PushPayload {
  title: string;
  body: string;
  /** Path in the app the notification opens when clicked. */
  url?: string;
  tag?: string;
}

/** "gone": the push service answered 404/410, the subscription no longer exists and must be removed. */
export type PushResult = "sent" | "gone";

export interface PushPort extends Integration {
  readonly kind: "webpush";
  /** The VAPID public key (base64url) browsers subscribe with. */
  publicKey(): Promise<string>;
  send(subscription: PushTarget, payload: PushPayload): Promise<PushResult>;
  /** Whether SIA may send to this endpoint (an HTTPS push service of the allow-list). */
  allows(endpoint: string): boolean;
}
