/**
 * SIA behind the nginx sample (deploy/nginx/sia.conf) as the README's «Producción» sets it up: the real
 * server in production mode with PUBLIC_URL on https and TRUST_PROXY_HOPS=1, Debian's nginx in front with
 * a self-signed certificate (openssl), both on loopback ports of their own. Through the proxy:
 *
 * - plain http is sent to https, and sign-in sets its cookies Secure, HttpOnly and SameSite;
 * - the realtime stream delivers an event as it happens (the stream is not held in nginx's buffer);
 * - a large CSV arrives whole, chunked, as text/csv, its first bytes long before its last, and a client
 *   that stops reading it does not make nginx copy it to its temp files (the client's pace reaches SIA's
 *   download guard; loopback's socket buffers, up to 32 MB each, still hide that pace from a test);
 * - the sign-in limit per address counts the client nginx saw, whatever X-Forwarded-For the client
 *   forged, and not everybody as the proxy's own address.
 *
 * Skipped, saying why, only when nginx is not installed (apt-get install nginx-light). Runs on PGlite, and
 * on a fresh PostgreSQL database with DATABASE_URL.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import https from "node:https";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_COOKIE } from "../../src/core/session";
import { buildUser, PASSWORD } from "../support/factories";
import { buildProject } from "../support/project-factories";
import { createStore, type ServerProcess, startServer, type TestStore } from "../support/server";
import { openStream } from "../support/sse";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const SAMPLE = path.join(ROOT, "deploy", "nginx", "sia.conf");
const NGINX = ["/usr/sbin/nginx", "/usr/bin/nginx"].find((file) => fs.existsSync(file));
if (!NGINX) console.warn("proxy.test.ts omitido: nginx no está instalado (apt-get install nginx-light)");

/** Failed sign-ins one address may make in the window (LOGIN_MAX_FAILURES_PER_ADDRESS, small for the test). */
const ADDRESS_LIMIT = 3;
/**
 * About 30 MB of CSV (3 KB a row): far beyond nginx's own buffers (8 × 4 KB), so a buffering nginx must
 * use its temp files. Few long rows, because inserting a row (its trigram index entry) costs more than
 * its length does.
 */
const ROWS = 10_000;
const REPEAT = 110;

let store: TestStore;
let server: ServerProcess | undefined;
let nginx: ChildProcess | undefined;
let dir = "";
let cert: Buffer;
let httpsPort = 0;
let httpPort = 0;
let adminEmail = "";
let projectId = 0;
let token = "";
/** How long the whole CSV took to arrive when read at full speed. */
let fullSpeedMs = 0;

/** A port nobody listens on now (another test run may be using the fixed ones on a shared machine). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** The sample with this run's ports and files; fails loudly if the sample no longer has what it replaces. */
function configFrom(sample: string, upstreamPort: number): string {
  const swap = (text: string, from: RegExp, to: string) => {
    if (!from.test(text)) throw new Error(`deploy/nginx/sia.conf ya no contiene ${from}`);
    return text.replace(from, to);
  };
  let conf = sample;
  conf = swap(conf, /^\s*listen \[::\]:80;\n/m, "");
  conf = swap(conf, /^\s*listen \[::\]:443 ssl http2;\n/m, "");
  conf = swap(conf, /listen 80;/, `listen 127.0.0.1:${httpPort};`);
  conf = swap(conf, /listen 443 ssl http2;/, `listen 127.0.0.1:${httpsPort} ssl http2;`);
  conf = swap(conf, /server 127\.0\.0\.1:3000;/, `server 127.0.0.1:${upstreamPort};`);
  conf = swap(conf, /ssl_certificate\s+\/etc\/ssl\/sia\/fullchain\.pem;/, `ssl_certificate ${dir}/cert.pem;`);
  conf = swap(conf, /ssl_certificate_key\s+\/etc\/ssl\/sia\/privkey\.pem;/, `ssl_certificate_key ${dir}/key.pem;`);
  const temp = ["client_body", "proxy", "fastcgi", "uwsgi", "scgi"]
    .map((kind) => `  ${kind}_temp_path ${dir}/${kind};`)
    .join("\n");
  // Run as whoever runs the tests: as root nginx's workers would otherwise become nobody, who cannot read
  // the temporary folder; Debian's compiled-in log and temp paths are replaced by files in that folder.
  const user = process.getuid?.() === 0 ? `user ${os.userInfo().username};\n` : "";
  return `${user}worker_processes 1;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
  access_log ${dir}/access.log;
  default_type application/octet-stream;
  # As Debian's /etc/nginx/nginx.conf has it.
  sendfile on;
  tcp_nopush on;
  gzip on;
${temp}
${conf}
}
`;
}

async function startNginx(conf: string) {
  fs.writeFileSync(path.join(dir, "nginx.conf"), conf);
  const child = spawn(
    NGINX as string,
    ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-e", path.join(dir, "error.log"), "-g", `daemon off; pid ${dir}/nginx.pid;`],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  child.stdout?.on("data", (chunk) => (out += chunk));
  child.stderr?.on("data", (chunk) => (out += chunk));
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx terminó al arrancar:\n${out}\n${readLog("error.log")}`);
    if (await answers(httpsPort)) return child;
    if (Date.now() - started > 15_000) throw new Error(`nginx no escucha en ${httpsPort}:\n${out}\n${readLog("error.log")}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const readLog = (name: string) => {
  try {
    return fs.readFileSync(path.join(dir, name), "utf8");
  } catch {
    return "";
  }
};

const answers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One https request through nginx, trusting only the test's certificate. */
function call(
  method: string,
  url: string,
  options: { body?: unknown; headers?: Record<string, string>; from?: string } = {},
): Promise<Answer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const request = https.request(
      `https://127.0.0.1:${httpsPort}${url}`,
      {
        method,
        ca: cert,
        agent: false,
        localAddress: options.from,
        headers: {
          ...(payload ? { "content-type": "application/json" } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...options.headers,
        },
      },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(payload);
  });
}

interface Download {
  status: number;
  headers: Answer["headers"];
  body: Buffer;
  startedAt: number;
  firstByteAt: number;
  doneAt: number;
}

/**
 * The administrator's activities CSV through nginx. With `onFirstChunk`, the client stops reading after the
 * first chunk (a tab that stops taking the download) until the function it is given is called.
 */
function download(onFirstChunk?: (resume: () => void) => void): Promise<Download> {
  const startedAt = Date.now();
  let firstByteAt = 0;
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    const request = https.get(
      `https://127.0.0.1:${httpsPort}/api/v1/activities.csv`,
      { ca: cert, agent: false, headers: { authorization: `Bearer ${token}` } },
      (response) => {
        response.on("data", (chunk: Buffer) => {
          chunks.push(chunk);
          if (firstByteAt) return;
          firstByteAt = Date.now();
          if (onFirstChunk) {
            response.pause();
            onFirstChunk(() => response.resume());
          }
        });
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
            startedAt,
            firstByteAt,
            doneAt: Date.now(),
          }),
        );
        response.on("error", reject);
      },
    );
    request.on("error", reject);
  });
}

describe.skipIf(!NGINX)("SIA detrás de nginx (deploy/nginx/sia.conf)", () => {
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "sia-proxy-"));
    execFileSync(
      "openssl",
      [
        "req",
        "-x509",
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:prime256v1",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=127.0.0.1",
        "-addext",
        "subjectAltName=IP:127.0.0.1",
        "-keyout",
        path.join(dir, "key.pem"),
        "-out",
        path.join(dir, "cert.pem"),
      ],
      { stdio: "pipe" },
    );
    cert = fs.readFileSync(path.join(dir, "cert.pem"));
    store = await createStore();
    await store.withDatabase(async ({ db }) => {
      const admin = await buildUser(db, "admin", { can_chat: true });
      adminEmail = admin.user.email;
      projectId = (await buildProject(db)).id;
      await db.execute(sql`insert into activities (employee_id, begins_at, ends_at, description, action_type)
        select ${admin.employee?.id}, timestamptz '2025-01-06 00:00Z' + n * interval '1 hour',
          timestamptz '2025-01-06 00:30Z' + n * interval '1 hour',
          'Revisión ' || n || ' ' || repeat('de la conciliación mensual ', ${REPEAT}), 'vacation'
        from generate_series(1, ${ROWS}) as n`);
    });
    const upstreamPort = await freePort();
    httpsPort = await freePort();
    httpPort = await freePort();
    server = await startServer(store, upstreamPort, {
      NODE_ENV: "production",
      PUBLIC_URL: `https://127.0.0.1:${httpsPort}`,
      TRUST_PROXY_HOPS: "1",
      // Per e-mail generous, per address small: the test signs in with a new e-mail each time.
      LOGIN_MAX_FAILURES: "100",
      LOGIN_MAX_FAILURES_PER_ADDRESS: String(ADDRESS_LIMIT),
      // The paused download below must not be ended for stalling while the test looks at it.
      DOWNLOAD_STALL_SECONDS: "60",
    });
    nginx = await startNginx(configFrom(fs.readFileSync(SAMPLE, "utf8"), upstreamPort));
  }, 180_000);

  afterAll(async () => {
    if (nginx && nginx.exitCode === null) {
      const gone = new Promise((resolve) => nginx?.once("exit", resolve));
      nginx.kill("SIGTERM");
      await gone;
    }
    await server?.kill("SIGKILL");
    await store?.destroy();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("http lleva a https; el inicio de sesión pone sus cookies Secure, HttpOnly y SameSite", async () => {
    const redirect = await new Promise<{ status: number; location?: string }>((resolve, reject) => {
      const request = net.connect(httpPort, "127.0.0.1", () => {
        request.end(`GET /app/activities HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      });
      let raw = "";
      request.on("data", (chunk) => (raw += chunk));
      request.on("end", () => resolve({ status: Number(raw.split(" ")[1]), location: /\r\nlocation: (.*)\r\n/i.exec(raw)?.[1] }));
      request.on("error", reject);
    });
    expect(redirect).toEqual({ status: 301, location: "https://127.0.0.1/app/activities" });
    // The start says the address people type, not the one nginx reaches.
    expect(server?.output()).toContain(`SIA está listo en https://127.0.0.1:${httpsPort}/app/activities (escucha en http://`);

    const signedIn = await call("POST", "/api/v1/sessions", { body: { email: adminEmail, password: PASSWORD } });
    expect(signedIn.status, signedIn.body).toBe(200);
    token = JSON.parse(signedIn.body).token;
    const cookies = [signedIn.headers["set-cookie"] ?? []].flat();
    const session = cookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`));
    expect(session, cookies.join("\n")).toBeDefined();
    expect(session).toMatch(/;\s*Secure/i);
    expect(session).toMatch(/;\s*HttpOnly/i);
    expect(session).toMatch(/;\s*SameSite=(Lax|Strict)/i);
    for (const cookie of cookies) expect(cookie, cookie).toMatch(/;\s*Secure/i);
    // PUBLIC_URL is https: browsers are told to come back over https only.
    expect(signedIn.headers["strict-transport-security"]).toMatch(/max-age=\d+/);
  });

  it("las respuestas JSON del API viajan comprimidas", async () => {
    const list = await call("GET", "/api/v1/activity_type_catalogs?per_page=all", { headers: { "accept-encoding": "gzip" } });
    expect(list.status).toBe(200);
    expect(list.headers["content-encoding"]).toBe("gzip");
    const plain = await call("GET", "/api/v1/activity_type_catalogs?per_page=all");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(Array.isArray(JSON.parse(plain.body).activity_type_catalogs)).toBe(true);
  });

  it("el flujo en tiempo real entrega un mensaje del tablero al momento", async () => {
    const stream = openStream(`https://127.0.0.1:${httpsPort}`, token, {}, "", { ca: cert });
    try {
      // A buffering proxy holds even the answer's headers (nothing of it fills a buffer): bounded, not hung.
      await Promise.race([
        stream.opened,
        new Promise((_, reject) => setTimeout(() => reject(new Error("el flujo no respondió en 10 s")), 10_000)),
      ]);
      expect(stream.status).toBe(200);
      expect(stream.contentType).toMatch(/^text\/event-stream/);
      await stream.waitFor((e) => e.event === "ready", 10_000);
      const posted = await call("POST", `/api/v1/projects/${projectId}/messages`, {
        body: { message: { body: "Hola desde detrás del proxy" } },
      });
      expect(posted.status, posted.body).toBe(201);
      const id = JSON.parse(posted.body).message.id;
      // SIA's next heartbeat is 20 s away: only an unbuffered stream delivers it within this time.
      const event = await stream.waitFor((e) => e.event === "message" && e.data.id === id, 5_000);
      expect(event.data.body).toBe("Hola desde detrás del proxy");
    } finally {
      stream.close();
    }
  });

  it("un CSV grande llega completo, por trozos, y su primer byte mucho antes que el último", async () => {
    const whole = await download();
    expect(whole.status).toBe(200);
    expect(whole.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(whole.headers["transfer-encoding"]).toBe("chunked");
    expect(whole.headers["content-length"]).toBeUndefined();
    const text = whole.body.toString("utf8");
    const lines = text.split("\n").filter((line) => line.trim() !== "");
    expect(lines.length).toBe(ROWS + 1);
    expect(text).toContain(`Revisión ${ROWS} `);
    fullSpeedMs = whole.doneAt - whole.startedAt;
    console.log(
      `CSV por el proxy: ${(whole.body.length / 1e6).toFixed(1)} MB, primer byte a los ${whole.firstByteAt - whole.startedAt} ms, completo a los ${fullSpeedMs} ms`,
    );
    expect(whole.firstByteAt - whole.startedAt).toBeLessThan(fullSpeedMs / 2);
  });

  it("un CSV que el cliente deja de leer no se copia a los archivos temporales de nginx", async () => {
    let resume: (() => void) | undefined;
    const paused = download((go) => {
      resume = go;
    });
    const started = Date.now();
    while (!resume) {
      if (Date.now() - started > 60_000) throw new Error("no llegó ningún byte del CSV");
      await new Promise((r) => setTimeout(r, 20));
    }
    // As long as the whole download took at full speed: a buffering nginx would meanwhile have written
    // what SIA sends into its temp files (and said so in its error log, at warn).
    await new Promise((r) => setTimeout(r, Math.max(2_000, fullSpeedMs)));
    resume();
    const whole = await paused;
    expect(whole.status).toBe(200);
    expect(whole.body.toString("utf8")).toContain(`Revisión ${ROWS} `);
    expect(readLog("error.log")).not.toMatch(/buffered to a temporary file/);
  });

  // Last: the address it locks is the test's own (127.0.0.1), from which nothing else could sign in after.
  it("el límite por dirección cuenta la dirección real, no el X-Forwarded-For que escribe el cliente", async () => {
    // Without the session: a browser signed in as that user is counted apart (limit.ts), not by address.
    token = "";
    for (let i = 1; i <= ADDRESS_LIMIT; i++) {
      const failed = await call("POST", "/api/v1/sessions", {
        body: { email: `nadie${i}@prueba.mx`, password: "equivocada" },
        headers: { "x-forwarded-for": `203.0.113.${i}` },
      });
      expect(failed.status, failed.body).toBe(401);
    }
    const refused = await call("POST", "/api/v1/sessions", {
      body: { email: "otra-persona@prueba.mx", password: "equivocada" },
      headers: { "x-forwarded-for": "198.51.100.7" },
    });
    expect(refused.status, refused.body).toBe(429);
    expect(refused.headers["retry-after"]).toBeDefined();
    // Even the right password: this address has used up its attempts for the window.
    const blocked = await call("POST", "/api/v1/sessions", {
      body: { email: adminEmail, password: PASSWORD },
      headers: { "x-forwarded-for": "198.51.100.8" },
    });
    expect(blocked.status).toBe(429);
    // Another client (another loopback address, as nginx sees it) is not locked out with the first: SIA
    // does not count everybody under the proxy's own address.
    const other = await call("POST", "/api/v1/sessions", { body: { email: adminEmail, password: PASSWORD }, from: "127.0.0.2" });
    expect(other.status, other.body).toBe(200);
  });
});
