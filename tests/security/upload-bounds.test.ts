/**
 * Uploads are bounded by what they hold, not only by their size (PUT activities/import_activities_csv,
 * PUT holydays/import_holydays): the template's header followed by 10 MB of blank lines, and a 10 MB
 * header of commas, both under UPLOAD_LIMIT_BYTES, answer a Spanish 422 at once (they took 10–13 s and
 * 5 s, and 2 GB of memory, when every blank record was kept and split on the event loop). And the reading
 * happens off the event loop: while one user's costly file is read, another user's requests are answered
 * as if nothing were happening (the event loop is never held for the file's reading). Runs on PGlite, and on PostgreSQL with DATABASE_URL.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACTIVITY_CSV_DELIMITERS, ACTIVITY_CSV_LIMITS } from "../../server/modules/calendar_imports/csv";
import { answerCsv } from "../../server/ports/calendar/icsWorker";
import { importMessages } from "../../src/core/messages";
import { ACTIVITY_CSV_COLUMNS } from "../../src/core/schemas/activity";
import { buildTestApp, type TestApp } from "../support/app";
import { importWeekCsv, multipart, rawRequest } from "../support/catalog-factories";
import { type ApiClient, signInAs } from "../support/factories";
import { underLoad } from "../support/timing";

const WEEK = "2031-03-17";
const TEN_MB = 10 * 1_048_576;
let t: TestApp;
let operator: ApiClient;
let other: ApiClient;
let admin: ApiClient;

beforeAll(async () => {
  t = await buildTestApp();
  operator = (await signInAs(t.app, "operator")).api;
  other = (await signInAs(t.app, "operator")).api;
  admin = (await signInAs(t.app, "admin")).api;
});
afterAll(() => t.close());

const header = `${ACTIVITY_CSV_COLUMNS.join(",")}\n`;
/** Just under the upload limit, with room for the multipart envelope. */
const fill = (prefix: string, unit: string) => prefix + unit.repeat(Math.floor((TEN_MB - 4096 - prefix.length) / unit.length));

async function timedImport(content: Buffer, client = operator) {
  const started = performance.now();
  const res = await importWeekCsv(t.app, client.token, WEEK, content);
  return { ...res, ms: performance.now() - started };
}

describe("a CSV is refused by what it holds", () => {
  it("the header and 10 MB of blank lines: a Spanish 422 at once, blank lines counted", async () => {
    const res = await timedImport(Buffer.from(fill(header, "\n")));
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors.base).toEqual([importMessages.csvTooManyLines(ACTIVITY_CSV_LIMITS.maxRecords)]);
    expect(res.ms).toBeLessThan(underLoad(3000));
  });

  it("blank lines written as CRLF, and as empty cells (;;;), count the same", async () => {
    for (const unit of ["\r\n", ";;;;;;;;;\r\n"]) {
      const res = await timedImport(Buffer.from(fill(header.replaceAll(",", ";"), unit)));
      expect(res.status, res.text).toBe(422);
      expect(res.body.errors.base).toEqual([importMessages.csvTooManyLines(ACTIVITY_CSV_LIMITS.maxRecords)]);
    }
  });

  it("a 10 MB header of commas: a Spanish 422 naming the line, at once", async () => {
    const res = await timedImport(Buffer.from(fill("", ",")));
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors.base).toEqual([
      importMessages.csvLine(1, importMessages.csvTooManyColumns(ACTIVITY_CSV_LIMITS.maxColumns)),
    ]);
    expect(res.ms).toBeLessThan(underLoad(3000));
  });

  it("a row of too many cells and a quoted giant cell are refused by their line", async () => {
    const wide = await timedImport(Buffer.from(`${header}${"x,".repeat(200_000)}\n`));
    expect(wide.body.errors.base).toEqual([
      importMessages.csvLine(2, importMessages.csvTooManyColumns(ACTIVITY_CSV_LIMITS.maxColumns)),
    ]);
    const quoted = await timedImport(Buffer.from(`${header}2031-03-17,09:00,10:00,RH,,,,,,"${"a".repeat(3_000_000)}"\n`));
    expect(quoted.status).toBe(422);
    expect(quoted.body.errors.base).toEqual([
      importMessages.csvLine(2, importMessages.csvCellTooLong("descripcion", ACTIVITY_CSV_LIMITS.maxCellChars)),
    ]);
  });

  it("exactly the limits are still read: a week with blank lines between its days", async () => {
    const rows = Array.from({ length: 7 }, (_, d) => `2031-03-${17 + d},09:00,10:00,RH,,,,,,Día ${d}\n\n\n`).join("");
    const res = await timedImport(Buffer.from(header + rows));
    expect(res.status, res.text).toBe(200);
    expect(res.body.import_activities).toHaveLength(7);
  });

  it("the holidays import is bounded the same way", async () => {
    const body = multipart({ filename: "festivos.csv", contentType: "text/csv", content: fill("fecha,nombre\n", "\n") });
    const started = performance.now();
    const res = await rawRequest(t.app, admin.token, "PUT", "/api/v1/holydays/import_holydays", body.payload, body.headers);
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors.base).toEqual([importMessages.csvTooManyLines(4 * 5000)]);
    expect(performance.now() - started).toBeLessThan(underLoad(3000));
  });
});

describe("a CSV is read off the event loop", () => {
  it("while one user's costly file is read, another user's requests are answered promptly", async () => {
    // Within every limit but slow to read: quoted cells made of doubled quotes.
    const cell = `"${'""'.repeat(999)}"`;
    const line = `${Array(10).fill(cell).join(",")}\n`;
    const costly = Buffer.from(header + line.repeat(300));
    // What reading it costs a thread: on the event loop, everyone would wait that long.
    const started = performance.now();
    answerCsv({ kind: "csv", id: 0, bytes: costly, delimiters: ACTIVITY_CSV_DELIMITERS, limits: ACTIVITY_CSV_LIMITS });
    const inThread = performance.now() - started;
    expect(inThread, "the file must be costly enough to tell").toBeGreaterThan(150);

    // The event loop's own delay while the file is read: what every other request would wait on top of its
    // own work. (Not the other user's round trips: on PostgreSQL those also carry the database's latency,
    // which other suites running beside this one can make as long as they please.)
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    let uploading = true;
    const upload = timedImport(costly).finally(() => {
      uploading = false;
    });
    let answered = 0;
    while (uploading) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      const res = await other.get("/api/v1/sessions/current");
      expect(res.status).toBe(200);
      answered++;
    }
    const res = await upload;
    loop.disable();
    // Its lines are not activities (or its reading ran out of time): a Spanish 422 either way.
    expect(res.status, res.text).toBe(422);
    expect(answered, "the other user was answered while the file was read").toBeGreaterThan(0);
    const worstBlock = loop.max / 1e6;
    expect(worstBlock, `the event loop's worst delay; reading in-thread took ${Math.round(inThread)} ms`).toBeLessThan(
      inThread / 2,
    );
  });

  it("one file at a time per user: a second upload while the first is read is a Spanish 429", async () => {
    const cell = `"${'""'.repeat(999)}"`;
    const costly = Buffer.from(header + `${Array(10).fill(cell).join(",")}\n`.repeat(300));
    let reading = true;
    const first = timedImport(costly).finally(() => {
      reading = false;
    });
    const meanwhile: Array<{ status: number; body: any }> = [];
    while (reading) {
      meanwhile.push(await timedImport(Buffer.from(`${header}\n`)));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await first).status).toBe(422);
    const refused = meanwhile.filter((r) => r.status === 429);
    expect(refused.length, JSON.stringify(meanwhile.map((r) => r.status))).toBeGreaterThan(0);
    expect(refused[0].body).toEqual({ error: importMessages.uploadOneAtATime });
    // Once it is read, the next one is read again (an empty file: its own Spanish 422).
    const after = await timedImport(Buffer.from(`${header}\n`));
    expect(after.body.errors.base).toEqual([importMessages.csvNoRows]);
  });
});
