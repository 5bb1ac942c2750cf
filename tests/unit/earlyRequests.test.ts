/** Early GETs (src/dataProvider/http.ts `prefetch`) and the timesheet's use of them (src/timesheet/early.ts). */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { listQuery } from "../../src/dataProvider";
import { apiFetch, dropEarly, earlyJson, prefetch } from "../../src/dataProvider/http";
import { defaultChoice, openingWeekStart, weekActivitiesParams } from "../../src/timesheet/early";

const answer = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

describe("early GETs", () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    fetchMock = vi.fn(async (url: string) => answer({ url, n: fetchMock.mock.calls.length }));
    vi.stubGlobal("fetch", fetchMock);
  });
  afterEach(() => {
    // Whatever a test left behind is not served to the next one.
    dropEarly([{ path: "things", query: { page: 1 } }, { path: "other" }]);
    vi.unstubAllGlobals();
  });

  it("serves the first identical GET from the request already started, and only the first", async () => {
    prefetch("things", { page: 1 });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const first = await apiFetch<{ n: number }>("things", { query: { page: 1 } });
    expect(first.n).toBe(1);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const second = await apiFetch<{ n: number }>("things", { query: { page: 1 } });
    expect(second.n).toBe(2);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it("does not serve a different query or a change, and a change drops what was started", async () => {
    prefetch("things", { page: 1 });
    await apiFetch("things", { query: { page: 2 } });
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await apiFetch("other", { method: "POST", body: {} });
    await apiFetch("things", { query: { page: 1 } });
    expect(fetchMock).toHaveBeenCalledTimes(4);
  });

  it("answers the read bodies only when every one has come, without taking them", async () => {
    prefetch("things", { page: 1 });
    expect(earlyJson([{ path: "things", query: { page: 1 } }, { path: "other" }])).toBeUndefined();
    prefetch("other");
    await vi.waitFor(() => expect(earlyJson([{ path: "things", query: { page: 1 } }, { path: "other" }])).toBeDefined());
    const [things, other] = earlyJson([{ path: "things", query: { page: 1 } }, { path: "other" }]) as { url: string }[];
    expect(things.url).toBe("/api/v1/things?page=1");
    expect(other.url).toBe("/api/v1/other");
    dropEarly([{ path: "things", query: { page: 1 } }]);
    expect(earlyJson([{ path: "things", query: { page: 1 } }])).toBeUndefined();
    await apiFetch("things", { query: { page: 1 } });
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it("keeps no read body for a failed answer, and the caller still gets the failure", async () => {
    fetchMock.mockImplementationOnce(async () => answer({ error: "No encontrado" }, 404));
    prefetch("things", { page: 1 });
    await new Promise((r) => setTimeout(r, 10));
    expect(earlyJson([{ path: "things", query: { page: 1 } }])).toBeUndefined();
    await expect(apiFetch("things", { query: { page: 1 } })).rejects.toMatchObject({ status: 404, message: "No encontrado" });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it("lets an aborted caller go without waiting for the early answer", async () => {
    let release: (r: Response) => void = () => undefined;
    fetchMock.mockImplementationOnce(() => new Promise<Response>((resolve) => (release = resolve)));
    prefetch("things", { page: 1 });
    const controller = new AbortController();
    const asked = apiFetch("things", { query: { page: 1 }, signal: controller.signal });
    controller.abort();
    await expect(asked).rejects.toMatchObject({ name: "AbortError" });
    release(answer({}));
  });
});

describe("the timesheet's opening requests", () => {
  it("opens on the Monday of the browser's week, named by its local date", () => {
    // Wednesday 25 November 2026, 10:00 in the test's zone.
    expect(openingWeekStart(new Date(2026, 10, 25, 10))).toMatch(/^2026-11-2[23]$/);
    expect(openingWeekStart(new Date(2026, 10, 23, 0, 30))).toBe(openingWeekStart(new Date(2026, 10, 29, 23)));
  });

  it("asks for the same week list the page asks for", () => {
    expect(listQuery(weekActivitiesParams("2026-11-23", 7))).toEqual({
      page: 1,
      per_page: 1000,
      "by_column[column]": "begins_at",
      "by_column[order]": "asc",
      "by_begins_at[start_date]": "2026-11-23",
      "by_begins_at[end_date]": "2026-11-29",
      by_employee: 7,
    });
  });

  it("opens on the user's own week; an admin without an employee record on everyone's", () => {
    const employee = { id: 1, name: "Ana", employee: { id: 7 } } as never;
    expect(defaultChoice(null)).toBeNull();
    expect(defaultChoice(employee)).toBe(7);
    expect(defaultChoice({ id: 2, name: "Sin ficha", administrator_role: true, employee: null } as never)).toBe("todos");
    expect(defaultChoice({ id: 3, name: "Sin ficha", employee: null } as never)).toBeNull();
  });
});
