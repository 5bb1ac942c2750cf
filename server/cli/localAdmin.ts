/**
 * The server's side of `create-admin` against a running embedded server (./localEndpoint.ts,
 * docs/decisions/032-local-admin.md): answers only a loopback connection that no proxy forwarded and that
 * carries the key the server wrote in DATA_DIR.
 */
import { timingSafeEqual } from "node:crypto";
import path from "node:path";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { accessMessages, backupMessages, messages } from "../../src/core/messages";
import { HttpError, ValidationError } from "../http/errors";
import { doc } from "../http/openapi";
import { nightlyBackupJob } from "../jobs/nightlyBackup";
import { runJob } from "../jobs/runner";
import { AdminInputError, createAdmin } from "./admin";
import { LOCAL_ADMIN_HEADER, readLocalAdminEndpoint } from "./localEndpoint";

const LOOPBACK = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);

/** From this machine, straight: a reverse proxy on the same host connects from loopback too, but says so. */
function isDirectLocal(request: FastifyRequest) {
  const h = request.headers;
  if (h.forwarded || h["x-forwarded-for"] || h["x-real-ip"]) return false;
  return LOOPBACK.has(request.socket.remoteAddress ?? "");
}

function sameKey(given: unknown, expected: string) {
  if (typeof given !== "string") return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const bodySchema = z.object({ email: z.string().max(300), password: z.string().max(500), name: z.string().max(300).optional() });
/** The administrator created or promoted (server/cli/admin.ts). */
const createdAnswer = z.object({
  userId: z.number(),
  employeeId: z.number(),
  email: z.string(),
  createdUser: z.boolean(),
  createdEmployee: z.boolean(),
});

/**
 * Before the body is read or validated: elsewhere, or with no endpoint written, the route does not exist
 * (404, whatever the body), and without the key it is a 401.
 */
const localOnly = (app: FastifyInstance) => async (request: FastifyRequest) => {
  const endpoint = readLocalAdminEndpoint(app.config);
  if (!endpoint || !isDirectLocal(request)) throw new HttpError(404, messages.routeNotFound);
  if (!sameKey(request.headers[LOCAL_ADMIN_HEADER], endpoint.key)) throw new HttpError(401, accessMessages.localAdminSecret);
};

/** The archive the running server wrote for `npm run backup`: its path on this machine. */
const backupWrittenAnswer = z.object({ file: z.string() });

export function localAdminRoutes(app: FastifyInstance) {
  app.post(
    "/local/create_admin",
    {
      // Not a session's route: the key from DATA_DIR, on a direct loopback connection, is the credential.
      config: { public: true },
      schema: doc({
        tags: ["users"],
        summary: "Crear o promover un administrador desde la máquina del servidor",
        body: bodySchema,
        response: { 200: createdAnswer },
      }),
      onRequest: localOnly(app),
    },
    async (request) => {
      const input = request.body as z.output<typeof bodySchema>;
      try {
        const result = await createAdmin(app.db.db, input);
        request.log.warn({ user: result.userId }, "administrator created or promoted from the server's machine");
        return result;
      } catch (error) {
        if (error instanceof AdminInputError) throw ValidationError.base(error.message);
        throw error;
      }
    },
  );

  app.post(
    "/local/backup",
    {
      // `npm run backup` while this embedded server holds the data folder: the same credential as above.
      config: { public: true },
      schema: doc({
        tags: ["jobs"],
        summary: "Respaldar desde la máquina del servidor (npm run backup con el servidor en marcha)",
        response: { 200: backupWrittenAnswer },
      }),
      onRequest: localOnly(app),
    },
    async () => {
      const outcome = await runJob({ db: app.db.db, mail: app.mail, config: app.config }, nightlyBackupJob, {
        force: true,
        trigger: "manual",
      });
      const name = outcome.summary?.file;
      if (outcome.status === "busy" || typeof name !== "string") throw new HttpError(409, backupMessages.backupBusy);
      return { file: path.join(app.config.backupDir, name) };
    },
  );
}
