/**
 * The timesheet's opening data (src/timesheet/data/prefetch.ts): started before the page's code loads, as
 * react-query prefetches under the very keys the page's queries read, so the page asks for nothing twice.
 */
import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it, vi } from "vitest";
import { listQuery, type SiaDataProvider } from "../../src/dataProvider";
import { timesheetKeys, weekActivitiesParams } from "../../src/timesheet/data/keys";
import { prefetchOpeningWeek } from "../../src/timesheet/data/prefetch";
import { defaultChoice, openingWeekStart, rememberChoice } from "../../src/timesheet/model/who";

function fakeProvider() {
  const calls: string[] = [];
  const dp = {
    getList: vi.fn(async (resource: string) => {
      calls.push(`list ${resource}`);
      return { data: resource === "activities" ? [{ id: 1 }] : [{ id: 5, name: "Ana" }], total: 1 };
    }),
    getOne: vi.fn(async () => {
      calls.push("settings");
      return { data: { id: 1, default_customer_id: 3 } };
    }),
    holydaysByDate: vi.fn(async () => {
      calls.push("holidays");
      return [{ date: "2026-11-16", name: "Revolución" }];
    }),
    weekState: vi.fn(async () => {
      calls.push("weekState");
      return { frozen: false };
    }),
  };
  return { dp: dp as unknown as SiaDataProvider, calls };
}

describe("the timesheet's opening requests", () => {
  it("opens on the Monday of the firm's week, whatever the browser's zone", () => {
    // Wednesday 25 November 2026, 10:00 in Mexico City.
    expect(openingWeekStart(new Date("2026-11-25T10:00:00-06:00"))).toBe("2026-11-23");
    // Sunday 20:00 in Mexico City is Monday in UTC and in Cancún: still the week of the 23rd.
    expect(openingWeekStart(new Date("2026-11-29T20:00:00-06:00"))).toBe("2026-11-23");
    expect(openingWeekStart(new Date("2026-11-23T00:30:00-06:00"))).toBe("2026-11-23");
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

  it("keeps an admin's chosen employee for the tab, per user; never for someone who only sees their own", () => {
    const m = new Map<string, string>();
    const tab = { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
    const admin = { id: 2, name: "Admin", administrator_role: true, employee: { id: 5 } } as never;
    const otherAdmin = { id: 4, name: "Otra", administrator_role: true, employee: { id: 6 } } as never;
    const operator = { id: 9, name: "Ana", employee: { id: 7 } } as never;
    expect(defaultChoice(admin, tab)).toBe(5);
    rememberChoice(admin, 12, tab);
    expect(defaultChoice(admin, tab)).toBe(12);
    expect(defaultChoice(otherAdmin, tab)).toBe(6);
    rememberChoice(admin, "todos", tab);
    expect(defaultChoice(admin, tab)).toBe("todos");
    rememberChoice(operator, 12, tab);
    m.set("sia:timesheet-employee:9", "12");
    expect(defaultChoice(operator, tab)).toBe(7);
    m.set("sia:timesheet-employee:2", "1; drop");
    expect(defaultChoice(admin, tab)).toBe(5);
  });

  it("prefetches the opening week into the shared client under the page's keys", async () => {
    const { dp, calls } = fakeProvider();
    const client = new QueryClient();
    prefetchOpeningWeek({ id: 1, name: "Ana", employee: { id: 7 } } as never, dp, client);
    await vi.waitFor(() => expect(calls).toHaveLength(4));
    await new Promise((resolve) => setTimeout(resolve, 0));
    const week = openingWeekStart();
    expect(client.getQueryData(timesheetKeys.week(week, 7))).toEqual([{ id: 1 }]);
    expect(client.getQueryData(timesheetKeys.holidays(week))).toEqual([{ date: "2026-11-16", name: "Revolución" }]);
    expect(client.getQueryData(timesheetKeys.weekState(week, 7))).toEqual({ frozen: false });
    expect(client.getQueryData(timesheetKeys.settings)).toEqual({ id: 1, default_customer_id: 3 });
    // Asked again (the page mounting) within the stale time: served from the cache, not requested.
    await client.prefetchQuery({
      queryKey: timesheetKeys.week(week, 7),
      queryFn: () => dp.getList("activities", {}),
      staleTime: 30_000,
    });
    expect(calls.filter((c) => c === "list activities")).toHaveLength(1);
  });

  it("an admin without an employee record: everyone's week, the employees, and no week state", async () => {
    const { dp, calls } = fakeProvider();
    const client = new QueryClient();
    prefetchOpeningWeek({ id: 2, name: "Admin", administrator_role: true, employee: null } as never, dp, client);
    await vi.waitFor(() => expect(calls).toHaveLength(4));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(calls.sort()).toEqual(["holidays", "list activities", "list employees", "settings"]);
    expect(client.getQueryData(timesheetKeys.week(openingWeekStart(), "todos"))).toEqual([{ id: 1 }]);
  });
});
