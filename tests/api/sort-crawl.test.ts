/**
 * Every list, sorted by every column its declaration (src/core/columns.ts) calls sortable — the columns
 * the screens offer to sort — as an administrator over the demo firm: each answers 200 and is really
 * ordered by that column, both ways.
 *
 * Ordered means: the descending page is the ascending one reversed (the server breaks ties by id in the
 * same direction, so this holds whatever the collation), NULLs come last ascending, and each consecutive
 * pair of values is in order by at least one reasonable reading of the column (numbers, booleans,
 * ISO dates, texts by code point or by a Spanish collation that ignores case, accents and punctuation,
 * as PostgreSQL's collations may). So a server that ignored the column would fail: each list has some
 * column whose id order is not its order (checked below).
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemo } from "../../server/db/seed";
import { LocalDocuments } from "../../server/ports/documents";
import { type ListName, listColumns, sortKeys } from "../../src/core/columns";
import { buildTestApp, type TestApp } from "../support/app";
import { type ApiClient, signIn } from "../support/factories";

const PASSWORD = "demo-secreta-1";
const PAGE = 1000;

let t: TestApp;
let admin: ApiClient;
let driveDir: string;

beforeAll(async () => {
  t = await buildTestApp();
  driveDir = await mkdtemp(path.join(os.tmpdir(), "sia-sort-crawl-"));
  const seeded = await seedDemo(t.app.db.db, {
    password: PASSWORD,
    now: new Date("2026-03-18T20:00:00Z"),
    documents: new LocalDocuments(driveDir),
  });
  expect(seeded.seeded).toBe(true);
  admin = await signIn(t.app, "admin@sia.local", PASSWORD);
}, 180_000);
afterAll(async () => {
  await t?.close();
  await rm(driveDir, { recursive: true, force: true });
});

type Row = Record<string, unknown> & { id: number };

const collators = [
  new Intl.Collator("es", { sensitivity: "base" }),
  new Intl.Collator("es", { sensitivity: "base", ignorePunctuation: true }),
  new Intl.Collator("en", { sensitivity: "base", ignorePunctuation: true }),
];
const NUMERIC = /^-?\d+(\.\d+)?$/;

/** Whether a ≤ b by some reading of the column's values (non-null values of one column). */
function inOrder(a: unknown, b: unknown): boolean {
  if (typeof a === "number" && typeof b === "number") return a <= b;
  if (typeof a === "boolean" && typeof b === "boolean") return a <= b;
  if (typeof a === "string" && typeof b === "string") {
    if (a <= b) return true; // code points ("C" collation), ISO dates and timestamps
    if (NUMERIC.test(a) && NUMERIC.test(b) && Number(a) <= Number(b)) return true; // numeric columns as text
    return collators.some((c) => c.compare(a, b) <= 0);
  }
  return false;
}

const isNull = (v: unknown) => v === null || v === undefined;

/** Where the values are out of order for an ascending list (NULLs last); undefined when ordered. */
function disorder(values: unknown[]): string | undefined {
  const firstNull = values.findIndex(isNull);
  if (firstNull >= 0 && values.slice(firstNull).some((v) => !isNull(v))) return `a value after a NULL at ${firstNull}`;
  const present = firstNull >= 0 ? values.slice(0, firstNull) : values;
  for (let i = 1; i < present.length; i++) {
    if (!inOrder(present[i - 1], present[i])) return `${JSON.stringify(present[i - 1])} before ${JSON.stringify(present[i])}`;
  }
  return undefined;
}

async function list(resource: string, key: string, order: "asc" | "desc") {
  const res = await admin.get(`/api/v1/${resource}?per_page=${PAGE}&by_column[column]=${key}&by_column[order]=${order}`);
  expect(res.status, `${resource} by ${key} ${order}: ${res.text}`).toBe(200);
  return { rows: res.body[resource] as Row[], total: res.body.meta.total_count as number };
}

const lists = Object.keys(listColumns) as ListName[];

describe("sorting every list by every sortable column", () => {
  it.each(lists)("%s", async (resource) => {
    const keys = sortKeys(resource);
    const byId = await list(resource, "id", "asc");
    if (resource !== "app_settings") expect(byId.rows.length, `${resource} has rows to sort`).toBeGreaterThan(2);
    const discriminating: string[] = [];
    for (const key of keys) {
      const asc = await list(resource, key, "asc");
      const desc = await list(resource, key, "desc");
      expect(asc.rows.length).toBe(byId.rows.length);
      for (const row of asc.rows) expect(Object.hasOwn(row, key), `${resource}.${key} is answered`).toBe(true);
      expect(disorder(asc.rows.map((r) => r[key])), `${resource} by ${key} asc`).toBeUndefined();
      expect(disorder([...desc.rows].reverse().map((r) => r[key])), `${resource} by ${key} desc`).toBeUndefined();
      if (asc.total <= PAGE) {
        // Ties broken by id the same way: descending is exactly ascending reversed.
        expect(
          desc.rows.map((r) => r.id),
          `${resource} by ${key}: desc is asc reversed`,
        ).toEqual(asc.rows.map((r) => r.id).reverse());
      }
      // A column whose order the id order is not: a server ignoring by_column would fail on it.
      if (disorder(byId.rows.map((r) => r[key]))) discriminating.push(key);
    }
    if (resource !== "app_settings")
      expect(discriminating, `${resource}: some column orders differently from id`).not.toEqual([]);
  });

  it("refuses a column the declaration does not call sortable", async () => {
    const res = await admin.get("/api/v1/clients?by_column[column]=complete_name&by_column[order]=asc");
    expect(res.status).toBe(422);
  });
});
