/** Why a database call failed, as the start, create-admin and the move say it: the driver's words, one line. */
import { describe, expect, it } from "vitest";
import { dbErrorReason } from "../../server/db/errors";

/** What drizzle throws: its own wrapper, the statement and its parameters, the driver's error as cause. */
const wrapped = (cause: unknown) =>
  Object.assign(new Error('Failed query: CREATE SCHEMA IF NOT EXISTS "drizzle"\nparams: '), { cause });

describe("dbErrorReason", () => {
  it("gives PostgreSQL's reason from under drizzle's wrapper, not the statement", () => {
    expect(dbErrorReason(wrapped(new Error("permission denied for database sia")))).toBe("permission denied for database sia");
    expect(dbErrorReason(wrapped(Object.assign(new Error(""), { code: "ECONNREFUSED" })))).toBe("ECONNREFUSED");
  });

  it("reads an AggregateError (a host with several addresses) and keeps to one line", () => {
    const refused = new AggregateError(
      [new Error("connect ECONNREFUSED ::1:5999"), new Error("connect ECONNREFUSED 127.0.0.1:5999")],
      "",
    );
    expect(dbErrorReason(wrapped(refused))).toBe("connect ECONNREFUSED ::1:5999; connect ECONNREFUSED 127.0.0.1:5999");
    expect(dbErrorReason(new Error("primera línea\nsegunda"))).toBe("primera línea");
  });

  it("never shows a password of a connection string", () => {
    expect(dbErrorReason(new Error("no se pudo con postgres://sia:Secreta-1@db:5432/sia"))).toBe(
      "no se pudo con postgres://sia:***@db:5432/sia",
    );
  });

  it("keeps the wrapper's first line when nothing below it says more", () => {
    expect(dbErrorReason(wrapped(undefined))).toBe('Failed query: CREATE SCHEMA IF NOT EXISTS "drizzle"');
    expect(dbErrorReason("texto")).toBe("texto");
  });
});
