/**
 * One user cannot take the server from everybody else (README, «Reparto justo del servidor»):
 *  - two hundred parallel requests of one session: a handful are served at once, a few more wait their
 *    turn, the rest answer a Spanish 429 with Retry-After; another user's request, sent after all of
 *    them, is answered before the crowd's last one (before, the database served them in arrival order);
 *  - the same through several sessions of the same user: the user's lane holds them too;
 *  - a different made-up token on every request: each costs a lookup, so they share their address's lane,
 *    which a colleague whose session was found valid lately does not enter;
 *  - realtime streams: past the cap per session (and per user) a new stream ends the oldest one, which is
 *    told why;
 *  - a burst of correct sign-ins: the password hashes take turns; past the queue a Spanish 429 with
 *    Retry-After, and such a refusal does not count as a failed attempt.
 * Runs on PGlite, and on PostgreSQL with DATABASE_URL.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fairShareMessages } from "../../src/core/messages";
import { buildTestApp, type TestApp } from "../support/app";
import { type ApiClient, buildUser, call, PASSWORD, signIn, signInAs } from "../support/factories";
import { openStream } from "../support/sse";

const IN_FLIGHT = 3;
const QUEUED = 5;
const ADDRESS_IN_FLIGHT = 2;
const ADDRESS_QUEUED = 20;
let t: TestApp;
let base: string;
let greedy: ApiClient;
let greedyEmail: string;
let other: ApiClient;

beforeAll(async () => {
  t = await buildTestApp({
    REQUESTS_IN_FLIGHT_PER_USER: String(IN_FLIGHT),
    REQUESTS_QUEUED_PER_USER: String(QUEUED),
    REQUESTS_IN_FLIGHT_PER_ADDRESS: String(ADDRESS_IN_FLIGHT),
    REQUESTS_QUEUED_PER_ADDRESS: String(ADDRESS_QUEUED),
    REALTIME_STREAMS_PER_SESSION: "3",
    REALTIME_STREAMS_PER_USER: "4",
    PASSWORD_HASH_CONCURRENCY: "1",
    PASSWORD_HASH_QUEUE: "2",
  });
  const g = await signInAs(t.app, "operator");
  greedy = g.api;
  greedyEmail = g.user.email;
  other = (await signInAs(t.app, "admin")).api;
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const address = t.app.server.address();
  base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});
afterAll(() => t.close());

/** An upload whose body never finishes arriving: the request holds its places until the socket closes. */
function slowRequest(token: string) {
  const request = http.request(`${base}/api/v1/activities/import_activities_csv?date=2031-03-17`, {
    method: "PUT",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "multipart/form-data; boundary=lento",
      "content-length": "100000",
    },
  });
  request.on("error", () => {});
  request.write('--lento\r\nContent-Disposition: form-data; name="file"; filename="semana.csv"\r\n');
  return request;
}

/** A request that notes when its answer came, in the order answers came. */
function tracked(order: string[], label: string, request: Promise<{ status: number; body: any; headers: any }>) {
  return request.then((res) => {
    order.push(label);
    return res;
  });
}

describe("requests in flight per session and per user", () => {
  it("a crowd of one session's requests: a few served, a few queued, the rest a Spanish 429 with Retry-After", async () => {
    const order: string[] = [];
    // A list, so that each admitted request has database work to queue (a cached session alone has none).
    const list = "/api/v1/projects?page=1&per_page=5";
    const crowd = Array.from({ length: 200 }, () => tracked(order, "greedy", greedy.get(list)));
    const theirs = tracked(order, "other", other.get(list));
    const answers = await Promise.all(crowd);
    const served = answers.filter((r) => r.status === 200);
    const refused = answers.filter((r) => r.status === 429);
    expect(served.length + refused.length).toBe(200);
    expect(served.length).toBeGreaterThanOrEqual(IN_FLIGHT + QUEUED);
    expect(refused.length).toBeGreaterThan(100);
    expect(refused[0].body).toEqual({ error: fairShareMessages.tooManyRequests });
    expect(Number(refused[0].headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect((await theirs).status).toBe(200);
    // On the embedded database (one connection, queries in arrival order) the other user's answer came
    // before the crowd's last one: it did not wait behind all of them. (PostgreSQL's pool of ten serves the
    // crowd's few admitted requests before this one is even parsed.)
    if (!process.env.DATABASE_URL) expect(order.indexOf("other")).toBeLessThan(order.lastIndexOf("greedy"));
    // The places are given back: the same session is served again afterwards.
    expect((await greedy.get("/api/v1/sessions/current")).status).toBe(200);
  });

  it("several sessions of one user share the user's lane: slow uploads hold it, not everyone's server", async () => {
    const sessions: ApiClient[] = [];
    for (let i = 0; i < 4; i++) sessions.push(await signIn(t.app, greedyEmail));
    // Two requests per session whose bodies never finish arriving (a slow laptop): 8 in all, within each
    // session's own lane (3 + 5), but the user's lane takes 3 at once and 5 waiting.
    const slow = sessions.flatMap((session) => [slowRequest(session.token), slowRequest(session.token)]);
    try {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const next = await sessions[0].get("/api/v1/sessions/current");
      expect(next.status).toBe(429);
      expect(next.body).toEqual({ error: fairShareMessages.tooManyRequests });
      // Another user is served meanwhile.
      expect((await other.get("/api/v1/sessions/current")).status).toBe(200);
    } finally {
      for (const request of slow) request.destroy();
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The places are given back when the client goes away.
    expect((await sessions[0].get("/api/v1/sessions/current")).status).toBe(200);
  });

  it("a token that opens no session is laned too: it cannot flood the session lookups", async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => call(t.app, "GET", "/api/v1/sessions/current", undefined, { authorization: "Bearer x" })),
    );
    expect(new Set(answers.map((r) => r.status))).toEqual(new Set([401, 429]));
  });

  it("a different made-up token on every request: the address's lane holds them, a signed-in colleague there is not in it", async () => {
    // The colleague's session was found valid already (their sign-in, above): they skip the address lane.
    expect((await other.get("/api/v1/sessions/current")).status).toBe(200);
    const order: string[] = [];
    const crowd = Array.from({ length: 300 }, (_, i) =>
      tracked(
        order,
        "invented",
        call(t.app, "GET", "/api/v1/sessions/current", undefined, { authorization: `Bearer inventado-${i}` }),
      ),
    );
    const theirs = tracked(order, "other", other.get("/api/v1/sessions/current"));
    const answers = await Promise.all(crowd);
    const refused = answers.filter((r) => r.status === 429);
    expect(answers.filter((r) => r.status === 401).length).toBeGreaterThanOrEqual(ADDRESS_IN_FLIGHT + ADDRESS_QUEUED);
    expect(refused.length).toBeGreaterThan(200);
    expect(refused[0].body).toEqual({ error: fairShareMessages.addressBusy });
    expect(Number(refused[0].headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect((await theirs).status).toBe(200);
    if (!process.env.DATABASE_URL) expect(order.indexOf("other")).toBeLessThan(order.lastIndexOf("invented"));
    // A sign-in from that address is served once the crowd is gone.
    expect((await signIn(t.app, greedyEmail)).token).toBeTruthy();
  });
});

describe("realtime streams per session and per user", () => {
  it("past the cap, a new stream ends the session's oldest one, which is told why", async () => {
    const streams = [];
    for (let i = 0; i < 4; i++) {
      const stream = openStream(base, greedy.token);
      await stream.opened;
      await stream.waitFor((e) => e.event === "ready");
      streams.push(stream);
    }
    await streams[0].waitForEnd();
    expect(streams[0].events.at(-1)).toEqual({
      id: expect.any(String),
      event: "replaced",
      data: { message: fairShareMessages.streamReplaced },
    });
    expect(streams.slice(1).map((s) => s.ended)).toEqual([false, false, false]);
    // Another session of the same user: its first stream is the user's fourth (the cap); the next one ends
    // the user's oldest stream, in the other session.
    const second = await signIn(t.app, greedyEmail);
    const fromPhone = openStream(base, second.token);
    await fromPhone.waitFor((e) => e.event === "ready");
    expect(streams.slice(1).map((s) => s.ended)).toEqual([false, false, false]);
    const again = openStream(base, second.token);
    await again.waitFor((e) => e.event === "ready");
    await streams[1].waitForEnd();
    expect([...streams.slice(2), fromPhone].map((s) => s.ended)).toEqual([false, false, false]);
    // Another user's stream is never touched.
    const theirs = openStream(base, other.token);
    await theirs.waitFor((e) => e.event === "ready");
    expect([...streams.slice(2), fromPhone, again].map((s) => s.ended)).toEqual([false, false, false, false]);
    for (const s of [...streams, fromPhone, again, theirs]) s.close();
  });

  it("forty streams of one session at once leave at most the cap open", async () => {
    const opened = Array.from({ length: 40 }, () => openStream(base, greedy.token));
    await Promise.all(opened.map((s) => s.opened.catch(() => {})));
    await new Promise((resolve) => setTimeout(resolve, 500));
    const stillOpen = opened.filter((s) => s.status === 200 && !s.ended);
    expect(stillOpen.length).toBeLessThanOrEqual(3);
    for (const s of opened) s.close();
  });
});

describe("password hashing takes turns", () => {
  it("a burst of correct sign-ins: the hashes queue, the overflow is a Spanish 429 that is not a failure", async () => {
    const { user } = await buildUser(t.app.db.db, "operator");
    // From twelve addresses (an office's laptops behind no shared router): one address's own lane would
    // already hold a burst to a few at once.
    const answers = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const res = await t.app.inject({
          method: "POST",
          url: "/api/v1/sessions",
          payload: { email: user.email, password: PASSWORD },
          remoteAddress: `10.0.0.${i + 1}`,
        });
        return { status: res.statusCode, body: res.json(), headers: res.headers };
      }),
    );
    const busy = answers.filter((r) => r.status === 429);
    expect(answers.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(3);
    expect(busy.length).toBeGreaterThan(0);
    expect(busy[0].body).toEqual({ error: fairShareMessages.signInBusy });
    expect(Number(busy[0].headers["retry-after"])).toBeGreaterThanOrEqual(1);
    // None of them was a failed attempt: the next ones are served as usual.
    for (let i = 0; i < 3; i++)
      expect((await call(t.app, "POST", "/api/v1/sessions", { email: user.email, password: PASSWORD })).status).toBe(200);
  });
});
