/**
 * A local Web Push service for tests (RFC 8030): records each POST (headers and encrypted body) and
 * answers 201, or 410 Gone for endpoints marked gone. `subscription()` makes a real browser-like
 * subscription (P-256 key pair + 16-byte auth secret) and `decrypt()` opens a recorded payload (RFC 8291).
 */
import { createECDH, randomBytes } from "node:crypto";
import http from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";

const ece = createRequire(import.meta.url)("http_ece") as {
  decrypt(buffer: Buffer, params: { version: string; privateKey: unknown; authSecret: string }): Buffer;
};

export interface PushRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export async function startPushService() {
  const received: PushRequest[] = [];
  const gone = new Set<string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "/";
      received.push({ path, headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = gone.has(path) ? 410 : 201;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const keysOf = new Map<string, { ecdh: ReturnType<typeof createECDH>; auth: string }>();
  return {
    received,
    base,
    /** A subscription as a browser would send it, with its private half kept here to decrypt. */
    subscription(name = randomBytes(6).toString("hex")) {
      const ecdh = createECDH("prime256v1");
      ecdh.generateKeys();
      const auth = randomBytes(16).toString("base64url");
      const endpoint = `${base}/push/${name}`;
      keysOf.set(endpoint, { ecdh, auth });
      return { endpoint, keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth } };
    },
    markGone(endpoint: string) {
      gone.add(new URL(endpoint).pathname);
    },
    decrypt(endpoint: string, body: Buffer): unknown {
      const keys = keysOf.get(endpoint);
      if (!keys) throw new Error(`unknown endpoint ${endpoint}`);
      return JSON.parse(
        ece.decrypt(body, { version: "aes128gcm", privateKey: keys.ecdh, authSecret: keys.auth }).toString("utf8"),
      );
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
