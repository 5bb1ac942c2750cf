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
  /**
   * The write is taken at a version (optimistic locking, docs/decisions/023): "required" for updates (428
   * without one), "optional" for actions that check it when it comes.
   */
  version?: "required" | "optional";
}): FastifySchema {
  const schema: FastifySchema & Record<string, unknown> = { tags: options.tags, summary: options.summary };
  if (options.version) {
    const required = options.version === "required";
    schema.headers = {
      type: "object",
      properties: {
        "if-match": {
          type: "string",
          description:
            'La versión leída (ETag de GET, p. ej. "3"); también puede ir como lock_version en el cuerpo.' +
            (required ? " Obligatoria (en la cabecera o en el cuerpo)." : " Opcional: si llega, se comprueba."),
        },
      },
    };
    schema.description =
      (required ? "Sin versión responde 428. " : "") +
      "Si otro guardado llegó antes, responde 409 con el registro actual y no escribe nada.";
  }
  if (options.body) {
    const body = toJson(options.body);
    schema.body = options.wrap ? { type: "object", properties: { [options.wrap]: body } } : body;
  }
  if (options.querystring) schema.querystring = options.querystring;
  return schema;
}
