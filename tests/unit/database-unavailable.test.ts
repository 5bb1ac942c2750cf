/** Which errors mean "the database cannot be reached" (503 + Retry-After) rather than a fault (500). */
import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "../../server/http/errors";

const withCode = (code: string, message = "x") => Object.assign(new Error(message), { code });

describe("isDatabaseUnavailable", () => {
  it("socket errors, SQLSTATE 08xxx and 57P01–57P03, pg's code-less connection messages, wrapped or not", () => {
    for (const code of ["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "08006", "08001", "57P01", "57P02", "57P03"])
      expect(isDatabaseUnavailable(withCode(code)), code).toBe(true);
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Client has encountered a connection error and is not queryable"))).toBe(true);
    // drizzle wraps the driver's error as its cause; net.connect rejects with an AggregateError.
    expect(isDatabaseUnavailable(new Error("Failed query", { cause: withCode("ECONNREFUSED") }))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([withCode("ECONNREFUSED")], "connect"))).toBe(true);
  });

  it("not constraint violations, bad input or plain bugs", () => {
    for (const code of ["23505", "23503", "22P02", "42P01", "57014", "40001"])
      expect(isDatabaseUnavailable(withCode(code)), code).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("cannot read properties of undefined"))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
