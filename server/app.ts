/**
 * build(): the whole HTTP application, used by main.ts and by the tests (fastify.inject), so an API
 * test exercises exactly what production runs. Plugins in order: external ones, then ours, then routes.
 */
import fs from "node:fs";
import path from "node:path";
import cookie from "@fastify/cookie";
import multipart from "@fastify/multipart";
import fastifyStatic from "@fastify/static";
import swagger from "@fastify/swagger";
import swaggerUi from "@fastify/swagger-ui";
import { sql } from "drizzle-orm";
import Fastify, { type FastifyInstance, type FastifyReply, type RouteOptions } from "fastify";
import helmet from "helmet";
import { APP_VERSION } from "../src/core/constants";
import { messages } from "../src/core/messages";
import { grantFor } from "../src/core/permissions";
import { PAGE_PATHS } from "../src/core/resources";
import { SESSION_COOKIE } from "../src/core/session";
import { configureHashing } from "./auth/passwords";
import { SessionCache } from "./auth/sessionCache";
import { userForToken } from "./auth/sessionLookup";
import type { Config } from "./config";
import type { Database } from "./db/client";
import { registerAuth, tokenOf } from "./http/auth";
import { forbidden, registerErrorHandler, unauthorized } from "./http/errors";
import { serializerCompiler, transform, validatorCompiler } from "./http/openapi";
import { RealtimeHub } from "./http/realtime";
import { registerResource } from "./http/resource";
import { secretKey } from "./http/secrets";
import { resources, routeModules } from "./modules";
import { driveApiRoutes, driveFileRoutes } from "./modules/drive";
import { jobsRoutes } from "./modules/jobs";
import { PushQueue } from "./modules/push";
import { sessionRoutes } from "./modules/sessions";
import { encryptStoredSecrets } from "./modules/users";
import { DIST_DIR } from "./paths";
import { type CalendarPort, type CalendarReader, createCalendar, createCalendarReader } from "./ports/calendar";
import { createDocuments, type DocumentsPort } from "./ports/documents";
import { createIdentity, type IdentityPort } from "./ports/identity";
import { createMail, type MailPort } from "./ports/mail";
import { createPush, type PushPort } from "./ports/push";
import { createTickets, type TicketsPort } from "./ports/tickets";

declare module "fastify" {
  interface FastifyInstance {
    db: Database;
    config: Config;
    /** The drive (server/ports/documents), one per app. */
    documents: DocumentsPort;
    /** The calendar of quotation events (server/ports/calendar), one per app. */
    calendar: CalendarPort;
    /** Outgoing e-mail (server/ports/mail): SMTP or the local outbox, one per app. */
    mail: MailPort;
    /** The provider calendar the timesheet import reads (null: .ics files only). */
    calendarReader: CalendarReader | null;
    /** The work-tracking service ticket search reads (server/ports/tickets), one per app. */
    tickets: TicketsPort;
    /** Sign-in with an OpenID Connect provider (server/ports/identity); null when not configured. */
    identity: IdentityPort | null;
    /** Web Push (server/ports/push): VAPID keys kept in the database, one per app. */
    push: PushPort;
    /** Pushes waiting to be sent, drained in the background (server/modules/push/service.ts). */
    pushes: PushQueue;
    /** LISTEN/NOTIFY fan-out of board messages, receipts and notifications to this process's streams. */
    realtime: RealtimeHub;
    /** Who each session token is, kept by this process and told of every change (server/auth/sessionCache.ts). */
    sessionCache: SessionCache | undefined;
  }
}

/** Paths the single-page app answers (browser history routing). */
const SPA_PATHS = ["/app", "/app/*", "/sign_in", "/404"];
/** Where the SPA opens on the timesheet (src/timesheet/data/prefetch.ts starts its data on the same ones). */
const TIMESHEET_PATHS = new Set(["/app", "/app/", PAGE_PATHS.activities]);

/** proxy-addr's trust function for `hops` proxies: the socket's peer and the next hops-1 addresses back. */
const trustedHops = (hops: number) => (hops > 0 ? (_address: string, hop: number) => hop < hops : false);

export async function build(options: {
  config: Config;
  database: Database;
  logger?: boolean;
  /** A drive other than the configured one (tests). */
  documents?: DocumentsPort;
  /** A mail port other than the configured one (tests). */
  mail?: MailPort;
  /** A provider calendar reader other than the configured one (tests). */
  calendarReader?: CalendarReader | null;
  /** A tickets port other than the configured one (tests). */
  tickets?: TicketsPort;
  /** A push port other than the configured one (tests). */
  push?: PushPort;
  /** Told of every route as it is added (tests/security lists them to check each one's permissions). */
  onRoute?: (route: RouteOptions) => void;
}): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    logger: options.logger === false || config.LOG_LEVEL === "silent" ? false : { level: config.LOG_LEVEL },
    bodyLimit: config.BODY_LIMIT_BYTES,
    // `.json` is accepted and ignored on every API path (the original client asked for sessions.json).
    rewriteUrl: (req) => (req.url ?? "/").replace(/^(\/api\/v1\/[^?]*?)\.json(?=\?|$)/, "$1"),
    // A hop count, never `true`: trusting every hop would let a client choose its address by writing
    // X-Forwarded-For, and with it escape (or turn on someone else) the per-address sign-in limit.
    trustProxy: trustedHops(config.TRUST_PROXY_HOPS ?? (config.PUBLIC_URL ? 1 : 0)),
    // A request must have arrived whole within this time: one sent a byte at a time is ended (Fastify's
    // default is no limit at all).
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    // What Node and Fastify refuse before any route runs (a malformed path, a 16 KB request line) is
    // answered in Spanish too, never with their English text or the path echoed back.
    frameworkErrors: (_error, _request, reply) => {
      (reply as unknown as FastifyReply).code(400).header("cache-control", "no-store").send({ error: messages.badRequest });
    },
    clientErrorHandler: (error, socket) => {
      if (!socket.writable) return socket.destroy();
      const code = (error as NodeJS.ErrnoException).code;
      const status = code === "HPE_HEADER_OVERFLOW" ? 431 : code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400;
      const text = { 400: "Bad Request", 408: "Request Timeout", 431: "Request Header Fields Too Large" }[status];
      const body = JSON.stringify({
        error: status === 431 ? messages.requestTooLong : status === 408 ? messages.requestTimeout : messages.badRequest,
      });
      socket.end(
        `HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    },
  });
  const { onRoute } = options;
  if (onRoute) app.addHook("onRoute", (route) => onRoute(route));
  // Password hashes take turns (server/auth/passwords.ts): one lane per process, sized by this app's config.
  configureHashing({
    inFlight: config.PASSWORD_HASH_CONCURRENCY,
    queued: config.PASSWORD_HASH_QUEUE,
    waitMs: config.PASSWORD_HASH_WAIT_MS,
  });
  app.decorate("db", database);
  app.decorate("config", config);
  app.decorate("documents", options.documents ?? (await createDocuments(config)));
  app.decorate("calendar", await createCalendar(config));
  app.decorate("mail", options.mail ?? createMail(config));
  app.decorate("tickets", options.tickets ?? (await createTickets(config, database)));
  const identity = createIdentity(config);
  app.decorate("identity", identity);
  // Learn the provider's token endpoint early (for the CSP below); a provider that is down now is retried on sign-in.
  identity?.check().catch((error) => app.log.warn({ err: error }, "proveedor de identidad inalcanzable al arrancar"));
  // Secrets saved in plain text by earlier versions are encrypted before the first request.
  const encrypted = await encryptStoredSecrets(database.db, secretKey(config));
  if (encrypted) app.log.info({ users: encrypted }, "tokens de Azure DevOps cifrados");
  app.decorate("push", options.push ?? createPush(config, database));
  const pushes = new PushQueue(app);
  app.decorate("pushes", pushes);
  app.addHook("onClose", async () => pushes.close(config.PUSH_TIMEOUT_MS + 1000));
  const realtime = new RealtimeHub(database);
  app.decorate("realtime", realtime);
  app.addHook("onClose", async () => realtime.close());
  const sessionCache = config.SESSION_CACHE_SIZE > 0 ? new SessionCache(database, config.SESSION_CACHE_SIZE) : undefined;
  await sessionCache?.start();
  app.decorate("sessionCache", sessionCache);
  const noteStatement = (text: string) => sessionCache?.noteStatement(text);
  if (sessionCache) database.queryListeners.add(noteStatement);
  app.addHook("onClose", async () => {
    database.queryListeners.delete(noteStatement);
    await sessionCache?.close();
  });
  app.decorate(
    "calendarReader",
    options.calendarReader !== undefined ? options.calendarReader : await createCalendarReader(config),
  );
  // Each route's contract is its zod schemas: they validate what it reads (Spanish 422s of SPEC §8) and
  // write what it answers (server/http/openapi.ts).
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(cookie);
  const https = config.PUBLIC_URL?.startsWith("https:") ?? false;
  // Security headers (helmet) on every response. helmet's middleware is built once here: @fastify/helmet
  // built it again, CSP parsing included, on every request. The CSP's connect-src function still runs per request.
  const securityHeaders = helmet({
    // Plain-HTTP installs (the embedded default on a laptop) must not be told to upgrade to HTTPS.
    hsts: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    contentSecurityPolicy: {
      directives: {
        upgradeInsecureRequests: https ? [] : null,
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        fontSrc: ["'self'", "data:"],
        // MSAL reads the provider's discovery document and redeems the code at its token endpoint from the page.
        connectSrc: identity ? ["'self'", () => identity.connectOrigins().join(" ")] : ["'self'"],
        // The service worker of Web Push notifications (public/sw.js).
        workerSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook("onRequest", (request, reply, done) =>
    securityHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined)),
  );
  await app.register(multipart, { limits: { fileSize: config.UPLOAD_LIMIT_BYTES, files: 1, fields: 20 } });
  // Before the documentation's routes, so its refusals are the same Spanish JSON as the API's.
  registerErrorHandler(app);
  await app.register(swagger, {
    openapi: {
      openapi: "3.1.0",
      info: {
        title: "SIA API",
        version: APP_VERSION,
        description: "API REST de SIA bajo /api/v1",
        license: { name: "Uso interno", identifier: "LicenseRef-SIA-interno" },
      },
      servers: [{ url: config.PUBLIC_URL ?? "/", description: "Este servidor" }],
      components: {
        securitySchemes: {
          bearer: { type: "http", scheme: "bearer", description: "El token de POST /api/v1/sessions" },
          session: { type: "apiKey", in: "cookie", name: SESSION_COOKIE, description: "La cookie de sesión del navegador" },
        },
      },
      security: [{ bearer: [] }, { session: [] }],
    },
    transform,
  });
  // The documentation (page, JSON, YAML, assets) maps every route: administrators with a session only.
  await app.register(swaggerUi, {
    routePrefix: "/api/docs",
    staticCSP: true,
    uiHooks: {
      onRequest: async (request) => {
        const token = tokenOf(request);
        const found = token ? await userForToken(database.db, token, config, sessionCache) : null;
        if (!found) throw unauthorized();
        if (!grantFor(found.user, "api_docs", "show")) throw forbidden();
      },
    },
  });

  app.get("/healthz", { schema: { hide: true } }, async (_request, reply) => {
    await database.rows(sql`select 1`);
    return reply.send({ status: "ok", version: APP_VERSION });
  });

  // Every answer of the API and the drive is someone's, or says whether a record exists (a 403, a 404): no
  // browser or proxy may keep a copy that the next person at a shared computer could read back.
  app.addHook("onSend", async (request, reply, payload) => {
    if (/^\/(api|drive)\//.test(request.url) && !reply.hasHeader("cache-control")) reply.header("cache-control", "no-store");
    return payload;
  });

  await app.register(
    async (api) => {
      registerAuth(api);
      await api.register(sessionRoutes);
      for (const resource of resources) registerResource(api, resource);
      for (const routes of routeModules) await api.register(routes);
      await api.register(driveApiRoutes);
      await api.register(jobsRoutes);
    },
    { prefix: "/api/v1" },
  );
  // The local drive's folders and files, for signed-in users only (its own auth hook, like /api/v1).
  await app.register(driveFileRoutes, { prefix: "/drive" });

  await registerSpa(app);
  return app;
}

async function registerSpa(app: FastifyInstance) {
  const indexPath = path.join(DIST_DIR, "index.html");
  const hasBuild = fs.existsSync(indexPath);
  if (hasBuild) {
    // The build writes each text file's .br and .gz beside it (vite.config.ts): sent as the browser
    // accepts, never compressed on a request (ADR 043).
    await app.register(fastifyStatic, { root: DIST_DIR, prefix: "/", wildcard: false, index: false, preCompressed: true });
  }
  // The timesheet's addresses get the same page with its chunks preloaded (vite.config.ts writes it), so
  // they download beside the main chunk rather than after it has run.
  const timesheetPath = path.join(DIST_DIR, "activities.html");
  const sendIndex = (request: import("fastify").FastifyRequest, reply: import("fastify").FastifyReply) => {
    if (!fs.existsSync(indexPath)) {
      return reply.status(503).type("text/plain; charset=utf-8").send("La interfaz no está compilada: ejecute npm run build.");
    }
    const pathname = request.url.split("?")[0];
    const file = TIMESHEET_PATHS.has(pathname) && fs.existsSync(timesheetPath) ? timesheetPath : indexPath;
    return reply.type("text/html; charset=utf-8").header("cache-control", "no-cache").send(fs.createReadStream(file));
  };
  for (const p of SPA_PATHS) app.get(p, { schema: { hide: true } }, sendIndex);
  app.get("/", { schema: { hide: true } }, (_request, reply) => reply.redirect("/app/activities"));
  if (hasBuild) {
    // Hashed assets are immutable; everything else under dist is served as is.
    app.addHook("onSend", async (request, reply) => {
      if (request.url.startsWith("/assets/")) reply.header("cache-control", "public, max-age=31536000, immutable");
    });
  }
}
