import type { z } from "zod";
import { ValidationError, zodFieldErrors } from "./errors";

/** A request body `{<key>: {...}}` (or the bare object) parsed with a shared schema, or a Spanish 422. */
export function parseWrapped<T extends z.ZodType>(body: unknown, key: string, schema: T): z.infer<T> {
  const raw = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  const inner = raw[key] && typeof raw[key] === "object" ? raw[key] : raw;
  const parsed = schema.safeParse(inner);
  if (!parsed.success) throw new ValidationError(zodFieldErrors(parsed.error));
  return parsed.data;
}
