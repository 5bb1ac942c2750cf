/** The session token a request carries: `Authorization: Bearer` (or `Token`), else the session cookie. */
import type { FastifyRequest } from "fastify";
import { SESSION_COOKIE } from "../../src/core/session";

export function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header) {
    const [scheme, value] = header.split(" ", 2);
    if (value && /^(bearer|token)$/i.test(scheme)) return value.trim();
  }
  return request.cookies?.[SESSION_COOKIE];
}
