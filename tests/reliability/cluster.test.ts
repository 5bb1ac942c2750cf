/**
 * Every core serves (server/cluster.ts): the real server started with WEB_CONCURRENCY=2 on PostgreSQL runs
 * two worker processes behind one port, both answering; each keeps its own session cache, and a sign-out,
 * a role given or an employee deactivated through one of them holds on the very next request whichever
 * process answers it (each request here opens its own connection, which the primary deals out in turn).
 * A worker that dies is replaced, and SIGTERM stops them all. On the embedded database more than one
 * process is refused with a Spanish message: PGlite is one process's.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildUser, PASSWORD } from "../support/factories";
import { createStore, type ServerProcess, startServer, type TestStore } from "../support/server";

const PORT = 3262;
const onPostgres = !!process.env.DATABASE_URL;
let store: TestStore;
let server: ServerProcess | undefined;

beforeAll(async () => {
  store = await createStore();
});
afterAll(async () => {
  await server?.kill();
  await store?.destroy();
});

interface Answer {
  status: number;
  body: any;
  etag?: string;
}

/** One request on a connection of its own (no keep-alive): the primary hands each to the next worker. */
function fresh(method: string, url: string, token?: string, body?: unknown, headers: Record<string, string> = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = http.request(
      `http://127.0.0.1:${PORT}${url}`,
      {
        method,
        agent: false,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(payload ? { "content-type": "application/json" } : {}),
          ...headers,
        },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => {
          text += chunk;
        });
        response.on("end", () => {
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // not JSON
          }
          resolve({ status: response.statusCode ?? 0, body: parsed, etag: response.headers.etag as string | undefined });
        });
      },
    );
    request.on("error", reject);
    request.end(payload);
  });
}

/** The statuses of `n` requests, each on its own connection. */
async function statuses(n: number, url: string, token: string) {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await fresh("GET", url, token)).status);
  return out;
}

/** The primary's children that are servers (tsx also runs an esbuild service beside them). */
const workersOf = (pid: number) =>
  execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(pid)], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.includes("main.ts"))
    .map((line) => Number(line.trim().split(/\s+/)[0]));

/** CPU ticks a process has used (user + system), from /proc. */
const cpuTicks = (pid: number) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return Number(fields[11]) + Number(fields[12]);
};

async function signIn(email: string) {
  const answer = await fresh("POST", "/api/v1/sessions", undefined, { email, password: PASSWORD });
  expect(answer.status).toBe(200);
  return answer.body.token as string;
}

async function update(token: string, url: string, body: unknown) {
  const { etag } = await fresh("GET", url, token);
  return fresh("PUT", url, token, body, etag ? { "if-match": etag } : {});
}

describe.runIf(onPostgres)("two server processes on PostgreSQL", () => {
  let admin = "";
  let operator: { token: string; userId: number; employeeId: number };

  beforeAll(async () => {
    const made = await store.withDatabase(async ({ db }) => ({
      admin: await buildUser(db, "admin"),
      operator: await buildUser(db, "operator"),
    }));
    server = await startServer(store, PORT, { WEB_CONCURRENCY: "2" });
    expect(server.output()).toContain("Procesos del servidor: 2");
    admin = await signIn(made.admin.user.email);
    operator = {
      token: await signIn(made.operator.user.email),
      userId: made.operator.user.id,
      employeeId: (made.operator.employee as { id: number }).id,
    };
  });

  it("runs two workers, and both answer", async () => {
    const workers = workersOf(server?.pid ?? 0);
    expect(workers).toHaveLength(2);
    const before = workers.map(cpuTicks);
    expect(await statuses(200, "/api/v1/projects", admin)).toEqual(Array(200).fill(200));
    const used = workers.map((pid, i) => cpuTicks(pid) - before[i]);
    // Each did a fair part of the work (a tick is 10 ms; 200 requests take a few hundred ms of CPU).
    for (const ticks of used) expect(ticks).toBeGreaterThan(2);
  });

  it("a role given through one process holds on every next request", async () => {
    expect(await statuses(6, "/api/v1/users", operator.token)).toEqual(Array(6).fill(403));
    const given = await update(admin, `/api/v1/users/${operator.userId}`, { user: { administrator_role: true } });
    expect(given.status).toBe(200);
    expect(await statuses(10, "/api/v1/users", operator.token)).toEqual(Array(10).fill(200));
    const taken = await update(admin, `/api/v1/users/${operator.userId}`, { user: { administrator_role: false } });
    expect(taken.status).toBe(200);
    expect(await statuses(10, "/api/v1/users", operator.token)).toEqual(Array(10).fill(403));
  });

  it("a sign-out through one process ends the session in both at once", async () => {
    const email = (await fresh("GET", "/api/v1/sessions/current", admin)).body.user.email as string;
    const token = await signIn(email);
    expect(await statuses(6, "/api/v1/sessions/current", token)).toEqual(Array(6).fill(200));
    expect((await fresh("DELETE", "/api/v1/sessions", token)).status).toBe(200);
    expect(await statuses(10, "/api/v1/sessions/current", token)).toEqual(Array(10).fill(401));
  });

  it("a deactivation through one process signs the employee out of both at once", async () => {
    expect(await statuses(6, "/api/v1/sessions/current", operator.token)).toEqual(Array(6).fill(200));
    const off = await update(admin, `/api/v1/employees/${operator.employeeId}`, { employee: { is_active: false } });
    expect(off.status).toBe(200);
    expect(await statuses(10, "/api/v1/sessions/current", operator.token)).toEqual(Array(10).fill(401));
  });

  it("a worker that dies is replaced, and SIGTERM stops them all", async () => {
    const pid = server?.pid ?? 0;
    const [victim] = workersOf(pid);
    process.kill(victim, "SIGKILL");
    const until = Date.now() + 30_000;
    let workers = workersOf(pid);
    while ((workers.length < 2 || workers.includes(victim)) && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      workers = workersOf(pid);
    }
    expect(workers).toHaveLength(2);
    expect(workers).not.toContain(victim);
    expect(server?.output()).toContain("Un proceso del servidor terminó");
    expect(await statuses(10, "/api/v1/projects", admin)).toEqual(Array(10).fill(200));
    expect(await server?.kill("SIGTERM")).toBe(0);
    server = undefined;
    for (const worker of workers) expect(fs.existsSync(`/proc/${worker}`)).toBe(false);
  });
});

describe.skipIf(onPostgres)("the embedded database", () => {
  it("refuses more than one process, in Spanish", async () => {
    await expect(startServer(store, PORT, { WEB_CONCURRENCY: "2" })).rejects.toThrow(
      /WEB_CONCURRENCY: más de un proceso solo con DATABASE_URL/,
    );
  });
});
