import { describe, expect, it } from "vitest";
import type { Activity } from "../../src/core/activity";
import { zonedTime } from "../../src/core/week";
import {
  activitiesByCell,
  cellId,
  cellLocked,
  cellMinutes,
  errorsByCell,
  gridRows,
  placeMinutes,
  planWeek,
  rowKeyOf,
} from "../../src/timesheet/grid/model";
import { MAX_PINNED, pinnedKey, pinnedOf, readPinned, togglePinned } from "../../src/timesheet/grid/pinned";

const MONDAY = "2030-01-07";
const TUESDAY = "2030-01-08";
let nextId = 1;
const at = (day: string, hhmm: string) => {
  const [h, m] = hhmm.split(":").map(Number);
  return zonedTime(day, h * 60 + m).toISOString();
};
const activity = (day: string, from: string, to: string, project: number, extra: Partial<Activity> = {}): Activity =>
  ({
    id: nextId++,
    lock_version: 3,
    employee_id: 7,
    begins_at: at(day, from),
    ends_at: at(day, to),
    description: `Trabajo ${project}`,
    action_type: "project",
    project_id: project,
    project_code: `PRY-${project}`,
    project_name: `Proyecto ${project}`,
    activity_type_catalog_id: 2,
    ownerable_id: null,
    ownerable_type: null,
    product_catalog_id: null,
    is_editable: true,
    is_month_frozen: false,
    ...extra,
  }) as Activity;

describe("the weekly grid's rows", () => {
  it("has one row per project and type used this week or recently, starred first", () => {
    const week = [activity(MONDAY, "09:00", "11:00", 1), activity(TUESDAY, "09:00", "10:00", 1)];
    const recent = [activity("2029-12-31", "09:00", "10:00", 2), activity("2029-12-31", "10:00", "11:00", 3)];
    const rows = gridRows(week, recent, [pinnedOf(recent[1])]);
    expect(rows.map((r) => r.label)).toEqual(["PRY-3 Proyecto 3", "PRY-1 Proyecto 1", "PRY-2 Proyecto 2"]);
    expect(rows[1].template.description).toBe("Trabajo 1");
  });

  it("shows a pinned row with no activity at all, first, and keeps the week's own label for a pinned one", () => {
    const week = [activity(MONDAY, "09:00", "11:00", 1)];
    const added = { ...pinnedOf(activity(MONDAY, "12:00", "13:00", 9)), description: "Nuevo" };
    const renamed = { ...pinnedOf(week[0]), project_name: "Nombre viejo" };
    const rows = gridRows(week, [], [added, renamed]);
    expect(rows.map((r) => r.label)).toEqual(["PRY-1 Proyecto 1", "PRY-9 Proyecto 9"]);
    expect(rows[1].template).toMatchObject({ project_id: 9, description: "Nuevo" });
  });
  it("keeps a row already on screen for the week after a save emptied it, sorted with the others", () => {
    const week = [activity(MONDAY, "09:00", "11:00", 2)];
    const before = gridRows([...week, activity(MONDAY, "12:00", "13:00", 7)], []);
    expect(before.map((r) => r.label)).toEqual(["PRY-2 Proyecto 2", "PRY-7 Proyecto 7"]);
    // Project 7's hours were emptied and saved: the week no longer holds it, the screen still shows its row.
    expect(gridRows(week, []).map((r) => r.label)).toEqual(["PRY-2 Proyecto 2"]);
    expect(gridRows(week, [], [], before).map((r) => r.label)).toEqual(["PRY-2 Proyecto 2", "PRY-7 Proyecto 7"]);
  });
  it("adds a cell's activities and locks a frozen day or a locked activity", () => {
    const a = activity(MONDAY, "09:00", "10:30", 1);
    const b = activity(MONDAY, "14:00", "14:45", 1);
    const cells = activitiesByCell([b, a]);
    const id = cellId(rowKeyOf(a), MONDAY);
    expect(cells.get(id)?.map((x) => x.id)).toEqual([a.id, b.id]);
    expect(cellMinutes(cells.get(id))).toBe(135);
    expect(cellLocked(cells.get(id), MONDAY, new Set())).toBe(false);
    expect(cellLocked(cells.get(id), MONDAY, new Set([MONDAY]))).toBe(true);
    expect(cellLocked([{ ...a, is_editable: false }], MONDAY, new Set())).toBe(true);
    expect(cellLocked(undefined, TUESDAY, new Set([MONDAY]))).toBe(false);
  });
});

describe("where a cell's hours go", () => {
  it("starts at 09:00 and works around what the day already holds", () => {
    expect(placeMinutes(120, [])).toEqual([{ from: 540, to: 660 }]);
    expect(placeMinutes(120, [{ from: 540, to: 600 }])).toEqual([{ from: 600, to: 720 }]);
    // A gap too small for the whole is skipped for the first one that holds it.
    expect(placeMinutes(120, [{ from: 570, to: 600 }])).toEqual([{ from: 600, to: 720 }]);
  });

  it("keeps an activity's start when the new length fits there", () => {
    expect(placeMinutes(180, [], 14 * 60)).toEqual([{ from: 840, to: 1020 }]);
    // Grown past what follows it: it stays and grows to there, and only the rest goes to the first free time.
    expect(placeMinutes(180, [{ from: 900, to: 960 }], 14 * 60)).toEqual([
      { from: 840, to: 900 },
      { from: 540, to: 660 },
    ]);
    // Raised from 4 h to 6 h between two others, then lowered back: the day is as it was.
    const around = [
      { from: 540, to: 630 },
      { from: 870, to: 1020 },
    ];
    expect(placeMinutes(360, around, 630)).toEqual([
      { from: 630, to: 870 },
      { from: 1020, to: 1140 },
    ]);
    expect(placeMinutes(240, around, 630)).toEqual([{ from: 630, to: 870 }]);
  });

  it("splits over free spans when no single one holds the hours, and says when the day is full", () => {
    const taken = [{ from: 600, to: 1380 }];
    expect(placeMinutes(90, taken)).toEqual([
      { from: 540, to: 600 },
      { from: 1380, to: 1410 },
    ]);
    expect(placeMinutes(16 * 60, [])).toBeNull();
  });
});

describe("the week save a grid makes", () => {
  it("creates, resizes and removes activities of the edited cells only", () => {
    const other = activity(MONDAY, "09:00", "10:00", 2);
    const one = activity(MONDAY, "10:00", "12:00", 1);
    const gone = activity(TUESDAY, "09:00", "11:00", 1);
    const rows = gridRows([other, one, gone], [activity("2029-12-31", "09:00", "10:00", 3)]);
    const row3 = rows.find((r) => r.label.startsWith("PRY-3"))?.key as string;
    const plan = planWeek(7, [other, one, gone], rows, {
      [cellId(rowKeyOf(one), MONDAY)]: 180,
      [cellId(rowKeyOf(gone), TUESDAY)]: 0,
      [cellId(row3, MONDAY)]: 60,
      [cellId(rowKeyOf(other), MONDAY)]: 60, // unchanged: nothing sent
    });
    expect(plan.payload.updates).toEqual([
      { id: one.id, lock_version: 3, begins_at: at(MONDAY, "10:00"), ends_at: at(MONDAY, "13:00") },
    ]);
    expect(plan.payload.deletions).toEqual([{ id: gone.id, lock_version: 3 }]);
    expect(plan.payload.creates).toHaveLength(1);
    expect(plan.payload.creates[0]).toMatchObject({
      project_id: 3,
      employee_id: 7,
      description: "Trabajo 3",
      begins_at: at(MONDAY, "13:00"),
      ends_at: at(MONDAY, "14:00"),
    });
  });

  it("turns one activity into two when the day's free time is split, and names the cell of each refusal", () => {
    const mine = activity(MONDAY, "09:00", "10:00", 1);
    const wall = activity(MONDAY, "10:00", "23:00", 2);
    const rows = gridRows([mine, wall], []);
    const id = cellId(rowKeyOf(mine), MONDAY);
    const plan = planWeek(7, [mine, wall], rows, { [id]: 90 });
    expect(plan.payload.updates).toEqual([
      { id: mine.id, lock_version: 3, begins_at: at(MONDAY, "09:00"), ends_at: at(MONDAY, "10:00") },
    ]);
    expect(plan.payload.creates.map((c) => [c.begins_at, c.ends_at])).toEqual([[at(MONDAY, "23:00"), at(MONDAY, "23:30")]]);
    expect(errorsByCell(plan, { "0": { base: ["Se traslapa"] }, "updates.0": ["Cerrada"] })).toEqual({
      [id]: ["Se traslapa", "Cerrada"],
    });
    expect(planWeek(7, [mine, wall], rows, { [id]: 600 }).noRoom).toEqual([id]);
  });
});

describe("the grid's pinned rows", () => {
  const store = () => {
    const m = new Map<string, string>();
    return {
      getItem: (k: string) => m.get(k) ?? null,
      setItem: (k: string, v: string) => void m.set(k, v),
      removeItem: (k: string) => void m.delete(k),
    };
  };

  it("reads a project row by its project and type: the client and product the server fills in are not part of it", () => {
    const saved = activity(MONDAY, "09:00", "11:00", 1, { ownerable_type: "Client", ownerable_id: 4, product_catalog_id: 2 });
    const fromForm = { ...pinnedOf(saved), ownerable_type: null, ownerable_id: null, product_catalog_id: null };
    expect(rowKeyOf(fromForm)).toBe(rowKeyOf(saved));
    expect(rowKeyOf({ ...saved, action_type: "support" })).not.toBe(rowKeyOf({ ...fromForm, action_type: "support" }));
  });

  it("pins and unpins a row by what it logs against, keeping no times or ids of an activity", () => {
    const a = activity(MONDAY, "09:00", "11:00", 1);
    const pinned = togglePinned([], a);
    expect(pinned).toHaveLength(1);
    expect(pinned[0]).not.toHaveProperty("begins_at");
    expect(pinned[0]).not.toHaveProperty("id");
    expect(togglePinned(pinned, activity(TUESDAY, "14:00", "15:00", 1))).toEqual([]);
  });

  it("reads garbage, another shape or an unknown action type as no pins, and keeps at most MAX_PINNED", () => {
    const s = store();
    for (const text of ["{", "42", '{"a":1}', '[{"action_type":"hacking"}]', "null"]) {
      s.setItem("k", text);
      expect(readPinned(s, "k")).toEqual([]);
    }
    s.setItem(
      "k",
      JSON.stringify(Array.from({ length: MAX_PINNED + 5 }, (_, i) => ({ action_type: "project", project_id: i + 1 }))),
    );
    expect(readPinned(s, "k")).toHaveLength(MAX_PINNED);
    expect(pinnedKey(3, 7)).not.toBe(pinnedKey(4, 7));
  });
});
