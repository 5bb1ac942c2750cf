/** The 422s a database error answers keep their Spanish wording now that it lives in src/core/messages.ts. */
import { describe, expect, it } from "vitest";
import { databaseValidationError } from "../../server/http/errors";

const bodyOf = (error: unknown) => databaseValidationError(error)?.body;

describe("database errors caused by the request", () => {
  it("a delete held back by a foreign key names the referencing table in Spanish", () => {
    const error = { code: "23503", detail: 'Key (id)=(1) is still referenced from table "bosses_workspaces".' };
    expect(bodyOf(error)).toEqual({ errors: { base: ["No se puede eliminar: está en uso en jefes de espacio de trabajo"] } });
  });

  it("an unknown referencing table is «otros registros»", () => {
    const error = { code: "23503", detail: 'Key (id)=(1) is still referenced from table "somewhere_else".' };
    expect(bodyOf(error)).toEqual({ errors: { base: ["No se puede eliminar: está en uso en otros registros"] } });
  });

  it("an exclusion violation is the overlapping-events message, with the overlap rule's code", () => {
    expect(bodyOf({ code: "23P01" })).toEqual({
      errors: { base: ["Hay eventos con fechas en conflictos"] },
      issues: [{ code: "overlap", field: "base", message: "Hay eventos con fechas en conflictos" }],
    });
  });
});
