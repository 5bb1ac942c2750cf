/**
 * The sign-in limit under attack (docs/decisions/021-auth-login-limit.md): parallel bursts on one
 * account, a password sprayed over many accounts from one address, the growing lock, pruning, and the
 * owner's known device that still opens a locked account. Each test signs in from its own address
 * (inject's remoteAddress), so the per-address counts of one test do not touch another's.
 */
import { eq, inArray, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { login_attempts } from "../../server/db/schema";
import { addressKey, DEVICE_COOKIE, lockSeconds } from "../../server/modules/sessions/limit";
import { messages } from "../../src/core/messages";
import { buildTestApp, type TestApp } from "../support/app";
import { buildUser, PASSWORD } from "../support/factories";
import { recordFigures } from "../support/figures";
import { race } from "../support/race";

const MAX = 5;
const PER_ADDRESS = 20;
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({
    LOGIN_MAX_FAILURES: String(MAX),
    LOGIN_MAX_FAILURES_PER_ADDRESS: String(PER_ADDRESS),
    LOGIN_LOCK_SECONDS: "30",
    LOGIN_WINDOW_MINUTES: "15",
  });
});
afterAll(() => t.close());

const figures: Record<string, unknown> = {};
afterAll(() => {
  recordFigures(
    "seguridad-acceso",
    `${figures.burst} sign-ins in parallel with a wrong password: ${figures.checked} checked, ${figures.refused} refused 429; ` +
      `spray over ${figures.sprayed} accounts from one address: ${figures.sprayChecked} checked`,
    figures,
  );
});

const login = (ip: string, email: string, password: string, cookie?: string) => ({
  method: "POST" as const,
  url: "/api/v1/sessions",
  payload: { email, password },
  remoteAddress: ip,
  headers: cookie ? { cookie } : {},
});
async function signIn(ip: string, email: string, password = PASSWORD, cookie?: string) {
  const response = await t.app.inject(login(ip, email, password, cookie));
  return { status: response.statusCode, body: response.json(), headers: response.headers };
}
const deviceOf = (headers: Record<string, unknown>) => {
  const raw = headers["set-cookie"];
  const list = (Array.isArray(raw) ? raw : [raw]).map(String);
  const found = list.find((c) => c.startsWith(`${DEVICE_COOKIE}=`));
  return found ? found.split(";")[0] : "";
};
const attemptsOf = async (email: string) =>
  (await t.app.db.db.select().from(login_attempts).where(eq(login_attempts.email, email))).length;
/** Moves every attempt of these keys `seconds` into the past (time passing, without waiting). */
async function age(keys: string[], seconds: number) {
  const rows = await t.app.db.db.select().from(login_attempts).where(inArray(login_attempts.email, keys));
  for (const row of rows)
    await t.app.db.db
      .update(login_attempts)
      .set({ created_at: new Date(row.created_at.getTime() - seconds * 1000) })
      .where(eq(login_attempts.id, row.id));
}

describe("parallel sign-ins on one account", () => {
  it("100 at once with a wrong password: only LOGIN_MAX_FAILURES are checked, the rest get 429 with Retry-After", async () => {
    const { user } = await buildUser(t.app.db.db, "admin");
    const { answers, tally } = await race(t.app, 100, () => login("10.1.0.1", user.email, "mala"));
    expect(tally).toEqual({ 401: MAX, 429: 100 - MAX });
    expect(await attemptsOf(user.email)).toBe(MAX);
    for (const a of answers.filter((x) => x.status === 429)) {
      expect(a.body).toEqual({ error: messages.tooManyAttempts });
      expect(Number(a.headers["retry-after"])).toBeGreaterThan(0);
      expect(Number(a.headers["retry-after"])).toBeLessThanOrEqual(30);
    }
    Object.assign(figures, { burst: 100, checked: tally[401], refused: tally[429] });
  });

  it("the right password at position 98 of the burst does not get in; the owner's known device does", async () => {
    const { user } = await buildUser(t.app.db.db, "admin");
    const other = await buildUser(t.app.db.db, "operator");
    // The owner signed in on their computer before: it holds a device cookie for this e-mail.
    const before = await signIn("10.1.0.2", user.email);
    expect(before.status).toBe(200);
    const device = deviceOf(before.headers);
    expect(device).toMatch(new RegExp(`^${DEVICE_COOKIE}=`));
    const otherDevice = deviceOf((await signIn("10.1.0.2", other.user.email)).headers);

    const { answers, tally } = await race(t.app, 100, (i) => login("10.1.0.3", user.email, i === 97 ? PASSWORD : "mala"));
    expect(answers[97].status).toBe(429);
    expect(tally).toEqual({ 401: MAX, 429: 100 - MAX });

    // Locked for the attacker and for a browser without the cookie, even with the right password ...
    expect((await signIn("10.1.0.4", user.email)).status).toBe(429);
    // ... and another account's device cookie does not open this one ...
    expect((await signIn("10.1.0.4", user.email, PASSWORD, otherDevice)).status).toBe(429);
    // ... a forged or tampered cookie neither.
    expect((await signIn("10.1.0.4", user.email, PASSWORD, `${device}x`)).status).toBe(429);
    expect((await signIn("10.1.0.4", user.email, PASSWORD, `${DEVICE_COOKIE}=1.abc`)).status).toBe(429);
    // The owner's device signs in with the right password: a lock is no free denial of service.
    const owner = await signIn("10.1.0.2", user.email, PASSWORD, device);
    expect(owner.status).toBe(200);
    expect(owner.body.user.id).toBe(user.id);
    // The attacker's failures stay: the e-mail is still locked for everyone else.
    expect((await signIn("10.1.0.3", user.email)).status).toBe(429);
  });

  it("a known device has a limit of its own, and its failures do not lock the e-mail", async () => {
    const { user } = await buildUser(t.app.db.db, "operator");
    const device = deviceOf((await signIn("10.1.0.5", user.email)).headers);
    const { tally } = await race(t.app, 30, () => login("10.1.0.5", user.email, "mala", device));
    expect(tally).toEqual({ 401: MAX, 429: 30 - MAX });
    expect((await signIn("10.1.0.5", user.email, PASSWORD, device)).status).toBe(429);
    expect(await attemptsOf(user.email)).toBe(0);
    expect((await signIn("10.1.0.6", user.email)).status).toBe(200);
  });
});

describe("a browser with an open session of the user", () => {
  it("signs in again with the right password while the e-mail is locked; another user's session does not help", async () => {
    const { user } = await buildUser(t.app.db.db, "operator");
    const stranger = await buildUser(t.app.db.db, "operator");
    const mine = (await signIn("10.1.0.7", user.email)).body.token as string;
    const theirs = (await signIn("10.1.0.7", stranger.user.email)).body.token as string;
    const { tally } = await race(t.app, 20, () => login("10.1.0.8", user.email, "mala"));
    expect(tally).toEqual({ 401: MAX, 429: 20 - MAX });
    const withSession = (token: string) =>
      t.app.inject({ ...login("10.1.0.7", user.email, PASSWORD), headers: { authorization: `Bearer ${token}` } });
    expect((await withSession(theirs)).statusCode).toBe(429);
    expect((await withSession(mine)).statusCode).toBe(200);
  });
});

describe("the lock grows and ends", () => {
  it("one more try after 30 s, then after 60 s; a success clears the e-mail", async () => {
    const { user } = await buildUser(t.app.db.db, "operator");
    const ip = "10.2.0.1";
    for (let i = 0; i < MAX; i++) expect((await signIn(ip, user.email, "mala")).status).toBe(401);
    const locked = await signIn(ip, user.email);
    expect(locked.status).toBe(429);
    expect(Number(locked.headers["retry-after"])).toBeLessThanOrEqual(30);
    await age([user.email], 31);
    expect((await signIn(ip, user.email, "mala")).status).toBe(401);
    const longer = await signIn(ip, user.email);
    expect(longer.status).toBe(429);
    expect(Number(longer.headers["retry-after"])).toBeGreaterThan(30);
    expect(Number(longer.headers["retry-after"])).toBeLessThanOrEqual(60);
    await age([user.email], 40);
    expect((await signIn(ip, user.email)).status).toBe(429);
    await age([user.email], 21);
    expect((await signIn(ip, user.email)).status).toBe(200);
    expect(await attemptsOf(user.email)).toBe(0);
  });

  it("doubles up to the window and no further", () => {
    const config = {
      LOGIN_MAX_FAILURES: 5,
      LOGIN_WINDOW_MINUTES: 15,
      LOGIN_LOCK_SECONDS: 30,
      LOGIN_MAX_FAILURES_PER_ADDRESS: undefined,
      SECRET_KEY: undefined,
      dataDir: "",
    };
    expect([4, 5, 6, 7, 8, 9, 10, 50, 5000].map((n) => lockSeconds(n, config))).toEqual([
      0, 30, 60, 120, 240, 480, 900, 900, 900,
    ]);
  });

  it("prunes attempts older than the window", async () => {
    await t.app.db.db.insert(login_attempts).values(
      Array.from({ length: 50 }, (_, i) => ({
        email: `viejo${i}@prueba.mx`,
        ip: "10.2.0.2",
        created_at: new Date(Date.now() - 20 * 60_000),
      })),
    );
    await signIn("10.2.0.3", "cualquiera@prueba.mx", "mala");
    expect(await t.app.db.db.select().from(login_attempts).where(like(login_attempts.email, "viejo%"))).toEqual([]);
  });
});

describe("one address spraying a password over many accounts", () => {
  it("after LOGIN_MAX_FAILURES_PER_ADDRESS failures the address is refused for every e-mail; other addresses are not", async () => {
    const accounts = await Promise.all(Array.from({ length: 10 }, () => buildUser(t.app.db.db, "operator")));
    const emails = [...accounts.map((a) => a.user.email), ...Array.from({ length: 30 }, (_, i) => `rociado${i}@prueba.mx`)];
    const { tally } = await race(t.app, emails.length, (i) => login("10.3.0.1", emails[i], "Verano2026!"));
    expect(tally).toEqual({ 401: PER_ADDRESS, 429: emails.length - PER_ADDRESS });
    // No single e-mail reached its own limit: the address did.
    const blocked = await signIn("10.3.0.1", accounts[0].user.email);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({ error: messages.tooManyAttempts });
    expect((await signIn("10.3.0.2", accounts[0].user.email)).status).toBe(200);
    Object.assign(figures, { sprayed: emails.length, sprayChecked: tally[401] });
  });
});

describe("the address behind a proxy is the one the proxy saw", () => {
  it("X-Forwarded-For written by the client neither escapes the per-address limit nor aims it at someone else", async () => {
    // SIA behind one reverse proxy (PUBLIC_URL set): the proxy (the socket's peer) appends the address it
    // saw; whatever the client wrote before it is not believed.
    const proxied = await buildTestApp({
      PUBLIC_URL: "https://sia.example.mx",
      LOGIN_MAX_FAILURES: String(MAX),
      LOGIN_MAX_FAILURES_PER_ADDRESS: String(PER_ADDRESS),
    });
    try {
      const via = (spoofed: string, real: string, email: string, password = "Otoño2026!") =>
        proxied.app.inject({
          method: "POST",
          url: "/api/v1/sessions",
          payload: { email, password },
          remoteAddress: "10.9.0.1",
          headers: { "x-forwarded-for": `${spoofed}, ${real}` },
        });
      const statuses: number[] = [];
      for (let i = 0; i < PER_ADDRESS + 5; i++) {
        statuses.push((await via(`10.0.${i}.7`, "203.0.113.5", `rociado-xff${i}@prueba.mx`)).statusCode);
      }
      // A new first entry each time did not buy a new address: the proxy's entry counted.
      expect(statuses.filter((s) => s === 429)).toHaveLength(5);
      // Nor can a client lock out the address it names: the victim, seen by the proxy, still gets in.
      const victim = await buildUser(proxied.app.db.db, "finance");
      expect((await via("203.0.113.5", "198.51.100.7", victim.user.email, PASSWORD)).statusCode).toBe(200);
    } finally {
      await proxied.close();
    }
  });

  it("IPv6 addresses count by their /64 network", () => {
    expect(addressKey("2001:db8:abcd:12:1::7")).toBe(addressKey("2001:0db8:abcd:0012:ffff:ffff:ffff:ffff"));
    expect(addressKey("2001:db8:abcd:12::1")).not.toBe(addressKey("2001:db8:abcd:13::1"));
    expect(addressKey("::ffff:192.0.2.4")).toBe("192.0.2.4");
    expect(addressKey("192.0.2.4")).toBe("192.0.2.4");
  });
});

describe("e-mails no account can have", () => {
  it("NUL, one that lower-casing lengthens past 254, a lone surrogate: 401 «Credenciales Invalidas», nothing reserved", async () => {
    const before = (await t.app.db.db.select().from(login_attempts)).length;
    for (const email of ["a\u0000b@prueba.mx", "İ".repeat(254), "\ud800@prueba.mx"]) {
      const res = await signIn("10.4.0.1", email, "mala");
      expect(res.status, JSON.stringify(email.slice(0, 10))).toBe(401);
      expect(res.body).toEqual({ error: messages.invalidCredentials });
    }
    expect((await t.app.db.db.select().from(login_attempts)).length).toBeLessThanOrEqual(before + 1);
  });
});
