import { afterEach, describe, expect, it, vi } from "vitest";
import { ImportCallError, importVerbs } from "../../src/dataProvider";

const answer = (status: number, body: unknown) =>
  vi.fn(async (_url: string, _init?: RequestInit) => new Response(JSON.stringify(body), { status }));

afterEach(() => vi.unstubAllGlobals());

describe("timesheet import verbs (SPEC §7)", () => {
  it("an .ics import posts multipart start_date, day and file to calendar_imports", async () => {
    const fetch = answer(200, { events: [{ id: "a" }] });
    vi.stubGlobal("fetch", fetch);
    const file = new File(["BEGIN:VCALENDAR"], "semana.ics", { type: "text/calendar" });
    expect(await importVerbs.importCalendar({ startDate: "2031-03-03", day: "2031-03-04", file })).toEqual([{ id: "a" }]);
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe("/api/v1/calendar_imports");
    const form = init?.body as FormData;
    expect([form.get("start_date"), form.get("day"), (form.get("file") as File).name]).toEqual([
      "2031-03-03",
      "2031-03-04",
      "semana.ics",
    ]);
  });

  it("a Google import sends JSON with source google and shows the server's 422 message", async () => {
    const fetch = answer(422, { errors: { source: ["Google Calendar aún no está conectado"] } });
    vi.stubGlobal("fetch", fetch);
    await expect(importVerbs.importCalendar({ startDate: "2031-03-03", source: "google" })).rejects.toMatchObject({
      message: "Google Calendar aún no está conectado",
      status: 422,
    });
    expect(JSON.parse(String(fetch.mock.calls[0][1]?.body))).toEqual({ start_date: "2031-03-03", source: "google" });
  });

  it("a refused CSV keeps every line of errors.base", async () => {
    vi.stubGlobal("fetch", answer(422, { errors: { base: ["Línea 3: hora no válida", "Línea 5: tipo no válido"] } }));
    const error = await importVerbs.importActivitiesCsv(new File(["x"], "a.csv"), "2031-03-03").catch((e) => e);
    expect(error).toBeInstanceOf(ImportCallError);
    expect(error.lines).toEqual(["Línea 3: hora no válida", "Línea 5: tipo no válido"]);
  });

  it("validation errors keyed by index travel per index; other failures are SPEC §8's", async () => {
    vi.stubGlobal("fetch", answer(422, { errors: { "1": { project_id: ["10:00 - 11:00: es obligatorio"] } } }));
    const error = await importVerbs.validateActivities([{}, {}]).catch((e) => e);
    expect(error.byIndex).toEqual({ "1": { project_id: ["10:00 - 11:00: es obligatorio"] } });
    expect(error.lines).toEqual(["10:00 - 11:00: es obligatorio"]);
    vi.stubGlobal("fetch", answer(403, {}));
    await expect(importVerbs.saveActivitiesBatch([{}])).rejects.toMatchObject({ status: 403, message: "Error de Permisos" });
  });

  it("the week save sends creates, updates and deletions in one request; 422 and 409 keep their keys", async () => {
    const fetch = answer(200, { activities: [], updated: [], deleted: [4], created: 0, existing: 0, message: "ok" });
    vi.stubGlobal("fetch", fetch);
    await importVerbs.saveWeek({
      updates: [{ id: 3, lock_version: 1, description: "x" }],
      deletions: [{ id: 4, lock_version: 0 }],
    });
    const [url, init] = fetch.mock.calls[0];
    expect(url).toBe("/api/v1/activities/batch");
    expect(JSON.parse(String(init?.body))).toEqual({
      activities: [],
      updates: [{ id: 3, lock_version: 1, description: "x" }],
      deletions: [{ id: 4, lock_version: 0 }],
    });
    const errors = { "updates.0": { lock_version: ["09:00 - 10:00: cambió"] } };
    vi.stubGlobal("fetch", answer(409, { error: "Otro usuario guardó", errors }));
    const stale = await importVerbs.saveWeek({ updates: [{ id: 3, lock_version: 0 }] }).catch((e) => e);
    expect(stale).toBeInstanceOf(ImportCallError);
    expect(stale).toMatchObject({ status: 409, message: "Otro usuario guardó", byIndex: errors });
    vi.stubGlobal("fetch", answer(422, { errors: { "deletions.1": { base: ["09:00 - 10:00: cerrado"] } } }));
    const refused = await importVerbs.validateWeek({ deletions: [] }).catch((e) => e);
    expect(refused).toMatchObject({ status: 422, byIndex: { "deletions.1": { base: ["09:00 - 10:00: cerrado"] } } });
  });
});
