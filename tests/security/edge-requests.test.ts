/**
 * Requests refused before or around the routes, as a hostile colleague sends them (the fourth outside test):
 *  - a path with a broken percent-encoding and a 70 KB query string: a Spanish 400 / 431 with no-store,
 *    never Node's or Fastify's English text, and the path not echoed back;
 *  - a google_calendar_event nested thousands of levels deep: a Spanish 422 on the field, never a 500 (it
 *    overflowed the stack when the activity was saved);
 *  - sign-in bodies sent a byte at a time do not hold their address's places: a colleague behind the same
 *    address signs in at once (they held all of them, and every sign-in there waited 10 s for a 429).
 * Real sockets: fastify.inject skips Node's HTTP parser. Runs on PGlite, and on PostgreSQL with DATABASE_URL.
 */
import type { AddressInfo } from "node:net";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "../../src/core/messages";
import { buildTestApp, type TestApp } from "../support/app";
import { type ApiClient, PASSWORD, signInAs } from "../support/factories";
import { allowFutureActivities } from "../support/future";

let t: TestApp;
let operator: ApiClient;
let email: string;
let port: number;

beforeAll(async () => {
  t = await buildTestApp({ REQUESTS_IN_FLIGHT_PER_ADDRESS: "2", REQUESTS_QUEUED_PER_ADDRESS: "2" });
  const signed = await signInAs(t.app, "operator");
  operator = signed.api;
  email = signed.user.email;
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

/** Sends `head` raw and answers the response's status, headers and body text once the server closes or answers. */
function raw(head: string): Promise<{ status: number; head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let text = "";
    socket.on("data", (chunk) => {
      text += chunk.toString("utf8");
    });
    socket.on("error", reject);
    socket.on("close", () => {
      const cut = text.indexOf("\r\n\r\n");
      const top = text.slice(0, cut);
      resolve({ status: Number(top.split(" ")[1]), head: top.toLowerCase(), body: text.slice(cut + 4) });
    });
    socket.write(head);
  });
}

describe("refused before any route runs", () => {
  it("a broken percent-encoding in the path: a Spanish 400, not Fastify's text, path not echoed", async () => {
    const res = await raw(`GET /api/v1/activities/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(res.status).toBe(400);
    expect(res.head).toContain("cache-control: no-store");
    expect(JSON.parse(res.body)).toEqual({ error: messages.badRequest });
  });

  it("a 70 KB query string: a Spanish 431 with no-store", async () => {
    const res = await raw(`GET /api/v1/activities?${"x".repeat(70_000)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.head).toContain("cache-control: no-store");
    expect(JSON.parse(res.body)).toEqual({ error: messages.requestTooLong });
  });
});

describe("a calendar event nested thousands deep", () => {
  it("is a Spanish 422 on its field on every path that takes it, never a 500", async () => {
    await allowFutureActivities(t.app);
    // Written as text: building it as an object and stringifying it would overflow this test's own stack.
    const deep = `${'{"a":'.repeat(6_000)}{"summary":"fondo"}${"}".repeat(6_000)}`;
    const activity = `{"begins_at":"2031-03-17T15:00:00Z","ends_at":"2031-03-17T16:00:00Z","action_type":"internal","description":"Anidada","google_calendar_event":${deep}}`;
    for (const [url, body] of [
      ["/api/v1/activities", `{"activity":${activity}}`],
      ["/api/v1/activities/batch", `{"activities":[${activity}]}`],
      ["/api/v1/activities/validate", `{"activities":[${activity}]}`],
    ] as const) {
      const res = await t.app.inject({
        method: "POST",
        url,
        payload: body,
        headers: { authorization: `Bearer ${operator.token}`, "content-type": "application/json" },
      });
      expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBeLessThan(500);
      expect(res.body).toContain(messages.nestedTooDeep(32));
    }
  });
});

describe("sign-in bodies sent a byte at a time", () => {
  it("hold no place of their address: a colleague there signs in at once", async () => {
    const slow = Array.from({ length: 6 }, () => {
      const socket = net.connect(port, "127.0.0.1");
      socket.on("error", () => {});
      socket.write(
        `POST /api/v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"e`,
      );
      return socket;
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const started = performance.now();
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/sessions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password: PASSWORD }),
      });
      expect(res.status, await res.clone().text()).toBe(200);
      // Without the fix it waited REQUEST_QUEUE_WAIT_MS (10 s) for a place and got a 429.
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      for (const socket of slow) socket.destroy();
    }
  });
});
