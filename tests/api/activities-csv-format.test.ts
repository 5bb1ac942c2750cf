/** The activities CSV format file shows one line of every kind the import reads. */
import { afterAll, beforeAll, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../support/app";
import { type ApiClient, signInAs } from "../support/factories";

let t: TestApp;
let operator: ApiClient;

beforeAll(async () => {
  t = await buildTestApp();
  operator = (await signInAs(t.app, "operator")).api;
});
afterAll(() => t.close());

it("has an example line of each type: P, S, PC, AS, RH and V", async () => {
  const res = await operator.get("/api/v1/activities/download_csv_format");
  expect(res.status).toBe(200);
  const [header, ...lines] = res.text
    .replace(/^\uFEFF/, "")
    .split("\r\n")
    .filter(Boolean);
  const tipo = header.split(",").indexOf("tipo");
  expect(lines.map((line) => line.split(",")[tipo]).sort()).toEqual(["AS", "P", "PC", "RH", "S", "V"]);
});
