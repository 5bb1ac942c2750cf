/** Answers written from their schema (server/http/openapi.ts): the same bytes as JSON.stringify, never a 500. */
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { serializerCompiler, validatorCompiler, wrapped } from "../../server/http/openapi";
import { recordSchema } from "../../server/http/records";
import { clientsResource } from "../../server/modules/clients";

const record = z.looseObject({
  id: z.number().int(),
  at: z.string().meta({ format: "date-time" }).nullable(),
  day: z.string().meta({ format: "date" }).nullable(),
  amount: z.string().nullable(),
  extra: z.unknown().optional(),
});
const write = serializerCompiler({ schema: z.object({ rows: z.array(record) }), httpStatus: "200" });

describe("the answer serialiser", () => {
  it("writes what JSON.stringify writes: Dates as ISO texts, nulls, keys the schema leaves open", () => {
    const body = {
      rows: [
        {
          id: 1,
          at: new Date(Date.UTC(2026, 2, 16, 15)),
          day: "2026-03-16",
          amount: "12.50",
          extra: { a: [1, "«x»"] },
          more: true,
        },
        { id: 2, at: null, day: null, amount: null },
        // Texts a format would refuse (PostgreSQL's own timestamp text) are still written as they are.
        { id: 3, at: "2026-03-16 10:00:00+00", day: "16/03/2026", amount: "1" },
      ],
    };
    const warn = vi.spyOn(process, "emitWarning");
    expect(write(body)).toBe(JSON.stringify(body));
    // Written by the schema's own writer, not by the fallback.
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });

  it("sends an answer its schema does not describe whole, rather than failing", () => {
    const lenient = serializerCompiler({ schema: z.object({ rows: z.array(record) }), httpStatus: "200", check: false });
    const body = { rows: [{ id: "no es número", at: 5, day: [], amount: {} }] };
    expect(JSON.parse(lenient(body))).toEqual(body);
  });

  it("under test, an answer its schema would change fails instead of reaching a client changed", () => {
    const whole = serializerCompiler({ schema: z.object({ hours: z.number().int(), code: z.string() }), httpStatus: "200" });
    expect(() => whole({ hours: 1.5, code: "A" })).toThrow(/no coincide/);
    expect(() => whole({ hours: 2, code: 7 })).toThrow(/no coincide/);
    expect(whole({ hours: 2, code: "7" })).toBe('{"hours":2,"code":"7"}');
  });

  it("a declared resource's record keeps every column of its table", () => {
    const schema = recordSchema(clientsResource) as z.ZodObject;
    for (const key of ["id", "name", "client_code", "lock_version", "created_at"])
      expect(Object.keys(schema.shape)).toContain(key);
  });

  it("keeps a key a closed schema does not declare (the contract test finds it; no screen loses it)", () => {
    const closed = serializerCompiler({ schema: z.object({ user: z.object({ id: z.number() }) }), httpStatus: "200" });
    const body = { user: { id: 1, name: "Ana" }, meta: { page: 1 } };
    expect(closed(body)).toBe(JSON.stringify(body));
  });

  it("error answers go through JSON.stringify whatever their schema", () => {
    const conflict = serializerCompiler({ schema: z.object({ error: z.string() }), httpStatus: "409" });
    const body = { error: "Otro guardado llegó antes", client: { id: 3 } };
    expect(conflict(body)).toBe(JSON.stringify(body));
  });
});

describe("the input validator", () => {
  const compile = (schema: z.ZodType, httpPart: string) =>
    (
      validatorCompiler as unknown as (o: {
        schema: z.ZodType;
        httpPart: string;
      }) => (d: unknown) => { value?: unknown; error?: { statusCode: number; body?: unknown } }
    )({
      schema,
      httpPart,
    });

  it("reads a wrapped body or the bare one, and names the inner field", () => {
    const check = compile(wrapped("client", z.object({ name: z.string({ error: "es obligatorio" }) })), "body");
    expect(check({ client: { name: "Ana" } }).value).toEqual({ client: { name: "Ana" } });
    expect(check({ name: "Ana" }).value).toEqual({ client: { name: "Ana" } });
    expect(check({ client: {} }).error?.body).toEqual({ errors: { name: ["es obligatorio"] } });
  });

  it("a bad path id is a record that does not exist; a query parameter answers by its own name", () => {
    expect(compile(z.object({ id: z.coerce.number().int().positive() }), "params")({ id: "x" }).error?.statusCode).toBe(404);
    const query = compile(z.object({ by_status: z.array(z.enum(["a"])) }), "querystring")({ by_status: ["b", "c"] });
    expect(query.error?.statusCode).toBe(422);
    expect(Object.keys((query.error?.body as { errors: object } | undefined)?.errors ?? {})).toEqual(["by_status"]);
  });
});
