/**
 * The server's side of `create-admin` against a running embedded server (./localEndpoint.ts,
 * docs/decisions/032-local-admin.md): answers only a loopback connection that no proxy forwarded and that
 * carries the key the server wrote in DATA_DIR.
 */
import { timingSafeEqual } from "node:crypto";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { z } from "zod";
import { accessMessages, messages } from "../../src/core/messages";
import { HttpError, ValidationError } from "../http/errors";
import { doc } from "../http/openapi";
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
      // Before the body is read or validated: elsewhere, or with no endpoint written, the route does not
      // exist (404, whatever the body), and without the key it is a 401.
      onRequest: async (request) => {
        const endpoint = readLocalAdminEndpoint(app.config);
        if (!endpoint || !isDirectLocal(request)) throw new HttpError(404, messages.routeNotFound);
        if (!sameKey(request.headers[LOCAL_ADMIN_HEADER], endpoint.key))
          throw new HttpError(401, accessMessages.localAdminSecret);
      },
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
}
