/**
 * Which push endpoints SIA will POST to. A subscription's endpoint is chosen by the browser, but a user
 * can send any URL: without a check every notice would make the server request an address of the
 * user's choosing (its own loopback, the cloud's metadata service, the intranet). Only HTTPS endpoints on
 * the hosts of the real push services are accepted; the tests' local push service is admitted through
 * PUSH_ALLOWED_HOSTS as an http:// origin, which the configuration accepts only with NODE_ENV=test.
 */

/** The browsers' push services: Chrome/Edge (FCM), Firefox (autopush), Windows (WNS), Safari (APNs). */
export const DEFAULT_PUSH_HOSTS = [
  "fcm.googleapis.com",
  "updates.push.services.mozilla.com",
  "*.notify.windows.com",
  "web.push.apple.com",
  "*.push.apple.com",
] as const;

/** A host name pattern: labels of letters, digits and dashes, optionally starting with `*.`, with a dot. */
const HOST_PATTERN = /^(\*\.)?([a-z0-9-]+\.)+[a-z]{2,}$/;

/** Why an entry of PUSH_ALLOWED_HOSTS is refused (Spanish, for the start-up message), or null. */
export function pushHostEntryProblem(entry: string, nodeEnv: string): string | null {
  if (/^https?:\/\//.test(entry)) {
    if (nodeEnv !== "test") return `${entry}: solo se admiten nombres de host (HTTPS), no orígenes http(s)://`;
    return null;
  }
  if (!HOST_PATTERN.test(entry)) return `${entry}: debe ser un nombre de host, p. ej. fcm.googleapis.com o *.notify.windows.com`;
  return null;
}

/** Whether the endpoint URL is one SIA may send a push to, under the allow-list. */
export function pushEndpointAllowed(endpoint: string, allowed: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  for (const entry of allowed) {
    if (/^https?:\/\//.test(entry)) {
      // An origin (tests only): same scheme, host and port.
      if (url.origin === new URL(entry).origin) return true;
      continue;
    }
    if (url.protocol !== "https:" || (url.port !== "" && url.port !== "443")) continue;
    const host = url.hostname.toLowerCase();
    if (entry.startsWith("*.") ? host.endsWith(entry.slice(1)) && host.length > entry.length - 1 : host === entry) return true;
  }
  return false;
}
