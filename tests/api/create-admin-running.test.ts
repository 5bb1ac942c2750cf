/**
 * `npm run create-admin` while the embedded server runs: the command cannot open the data folder the
 * server holds, so it asks the server, through a route that answers only this machine with the key the
 * server wrote in DATA_DIR (docs/decisions/032-local-admin.md).
 */
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCreateAdmin } from "../../server/cli/admin";
import { LOCAL_ADMIN_FILE, LOCAL_ADMIN_HEADER, LOCAL_ADMIN_PATH, writeLocalAdminEndpoint } from "../../server/cli/localEndpoint";
import { buildTestApp, type TestApp } from "../support/app";
import { createStore, type ServerProcess, startServer, type TestStore } from "../support/server";

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });

const captured = () => {
  const lines = { out: [] as string[], err: [] as string[] };
  return { lines, io: { out: (l: string) => lines.out.push(l), err: (l: string) => lines.err.push(l) } };
};

describe.skipIf(Boolean(process.env.DATABASE_URL))("create-admin against a running embedded server", () => {
  let store: TestStore;
  let server: ServerProcess;
  beforeAll(async () => {
    store = await createStore();
    server = await startServer(store, await freePort());
  }, 180_000);
  afterAll(async () => {
    await server?.kill("SIGTERM");
    await store?.destroy();
  });

  it("creates the administrator through the server, who can then sign in and administer", async () => {
    const file = path.join(store.dataDir, LOCAL_ADMIN_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const { lines, io } = captured();
    const code = await runCreateAdmin(
      ["--email", "Rescate@Empresa.mx", "--password", "contraseña-larga", "--name", "Rescate"],
      { DATA_DIR: store.dataDir },
      io,
    );
    expect(lines.err).toEqual([]);
    expect(code).toBe(0);
    expect(lines.out[0]).toMatch(/^Administrador creado: rescate@empresa\.mx/);
    expect(lines.out).toContain("Hecho a través del servidor SIA en ejecución.");

    const session = await fetch(`${server.url}/api/v1/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "rescate@empresa.mx", password: "contraseña-larga" }),
    });
    expect(session.status).toBe(200);
    const { token } = (await session.json()) as { token: string };
    const users = await fetch(`${server.url}/api/v1/users`, { headers: { authorization: `Bearer ${token}` } });
    expect(users.status).toBe(200);
  });

  it("refuses the route without the key, with a wrong key, or forwarded by a proxy, in Spanish", async () => {
    const { key } = JSON.parse(fs.readFileSync(path.join(store.dataDir, LOCAL_ADMIN_FILE), "utf8"));
    const post = (headers: Record<string, string>) =>
      fetch(`${server.url}${LOCAL_ADMIN_PATH}`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ email: "intruso@empresa.mx", password: "contraseña-larga" }),
      });
    for (const headers of [{}, { [LOCAL_ADMIN_HEADER]: "adivinada" }] as Record<string, string>[]) {
      const res = await post(headers);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: string }).error).toMatch(/^La clave local de administración no es válida/);
    }
    const proxied = await post({ [LOCAL_ADMIN_HEADER]: key, "x-forwarded-for": "203.0.113.9" });
    expect(proxied.status).toBe(404);
    // The same key on a direct connection is the machine's user asking: allowed.
    expect((await post({ [LOCAL_ADMIN_HEADER]: key })).status).toBe(200);
  });

  it("removes its endpoint when it stops, and then the command opens the folder itself", async () => {
    await server.kill("SIGTERM");
    expect(fs.existsSync(path.join(store.dataDir, LOCAL_ADMIN_FILE))).toBe(false);
    const { lines, io } = captured();
    expect(
      await runCreateAdmin(["--email", "otra@empresa.mx", "--password", "contraseña-larga"], { DATA_DIR: store.dataDir }, io),
    ).toBe(0);
    expect(lines.out).not.toContain("Hecho a través del servidor SIA en ejecución.");
  });
});

describe("the local route inside the app", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it("does not exist from another machine, nor before the server wrote its key", async () => {
    const body = { email: "x@empresa.mx", password: "contraseña-larga" };
    const before = await t.app.inject({ method: "POST", url: LOCAL_ADMIN_PATH, payload: body });
    expect(before.statusCode).toBe(404);
    const remove = writeLocalAdminEndpoint(t.app.config, "http://127.0.0.1:1");
    try {
      const { key } = JSON.parse(fs.readFileSync(path.join(t.app.config.dataDir, LOCAL_ADMIN_FILE), "utf8"));
      const remote = await t.app.inject({
        method: "POST",
        url: LOCAL_ADMIN_PATH,
        payload: body,
        headers: { [LOCAL_ADMIN_HEADER]: key },
        remoteAddress: "203.0.113.9",
      });
      expect(remote.statusCode).toBe(404);
      const weak = await t.app.inject({
        method: "POST",
        url: LOCAL_ADMIN_PATH,
        payload: { email: "x@empresa.mx", password: "corta" },
        headers: { [LOCAL_ADMIN_HEADER]: key },
      });
      expect(weak.statusCode).toBe(422);
      expect(weak.json().errors.base).toEqual(["La contraseña debe tener al menos 8 caracteres."]);
    } finally {
      remove();
    }
  });
});
