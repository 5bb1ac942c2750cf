import type { z } from "zod";
import { parse } from "./errors";

/** A request body `{<key>: {...}}` (or the bare object) parsed with a shared schema, or a Spanish 422. */
export function parseWrapped<T extends z.ZodType>(body: unknown, key: string, schema: T): z.infer<T> {
  const raw = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  const inner = raw[key] && typeof raw[key] === "object" ? raw[key] : raw;
  return parse(schema, inner);
}
