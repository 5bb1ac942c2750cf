/** Route documentation from the zod schemas of src/core (validation itself is zod's, in the handlers). */
import type { FastifySchema } from "fastify";
import { z } from "zod";

const toJson = (schema: z.ZodType) => {
  try {
    return z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  } catch {
    return {};
  }
};

export function doc(options: {
  tags: string[];
  summary: string;
  body?: z.ZodType;
  wrap?: string;
  querystring?: Record<string, unknown>;
}): FastifySchema {
  const schema: FastifySchema & Record<string, unknown> = { tags: options.tags, summary: options.summary };
  if (options.body) {
    const body = toJson(options.body);
    schema.body = options.wrap ? { type: "object", properties: { [options.wrap]: body } } : body;
  }
  if (options.querystring) schema.querystring = options.querystring;
  return schema;
}
