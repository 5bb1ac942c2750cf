/**
 * Eight weeks of time tracking per active employee (plus the current week up to now): working days
 * only, 09:00–18:00 Mexico City with a lunch hour, 2–4 activities a day that never overlap. Weeks older
 * than four are closed and the months wholly inside them frozen, so their activities are not editable.
 */
import { ACTIVITY_TYPES, type ActionType, VACATION_DESCRIPTION } from "../../../src/core/constants";
import { addDays, dayOfWeek, firstOfMonth, lastOfMonth, mondayOf, zonedTime } from "../../../src/core/week";
import type { Tx } from "../client";
import { activities, frozen_periods } from "../schema";
import type { Random } from "./calendar";
import {
  type EmployeeSeed,
  INTERNAL_DESCRIPTIONS,
  PROJECT_DESCRIPTIONS,
  type Profile,
  QUOTE_DESCRIPTIONS,
  RH_DESCRIPTIONS,
  SUPPORT_ISSUES,
} from "./data";
import { insertChunked } from "./sequences";

export interface ActivityContext {
  rng: Random;
  /** Mexico City date and minute of the day at seed time. */
  today: string;
  nowMinutes: number;
  holidays: Set<string>;
  adminUserId: number;
  defaultCustomerId: number;
  employees: {
    id: number;
    userId: number;
    profile: Profile;
    assigned: { client_id: number; product_catalog_id: number }[];
    shortLastWeek?: EmployeeSeed["shortLastWeek"];
  }[];
  projects: {
    id: number;
    clientId: number;
    clientName: string;
    productId: number;
    pmId: number;
    rapeId: number;
    features: string[];
  }[];
  supportable: { clientId: number; productId: number }[];
  clientName(id: number): string;
  productName(id: number): string;
  prospects: { id: number; name: string }[];
  quotableProductIds: number[];
}

const WEEKS_BACK = 8;
const OPEN_WEEKS = 4;
const DAY_START = 9 * 60;
const DAY_END = 18 * 60;

const ACTION_WEIGHTS: Record<Profile, Partial<Record<ActionType, number>>> = {
  dev: { project: 82, internal: 14, rh: 4 },
  consult: { project: 50, support: 22, quote: 18, internal: 10 },
  support: { support: 72, project: 12, internal: 10, quote: 6 },
  manager: { project: 45, quote: 22, internal: 28, rh: 5 },
  office: { internal: 55, rh: 35, quote: 10 },
};
const PROJECT_TYPE_WEIGHTS: Record<Profile, Record<string, number>> = {
  dev: { DE: 50, AN: 12, PR: 15, PY: 6, DC: 10, EO: 7 },
  consult: { IM: 35, CE: 25, AN: 20, DC: 10, PY: 10 },
  support: { IM: 40, CE: 30, EO: 30 },
  manager: { PY: 45, AN: 30, CE: 10, IM: 15 },
  office: { PY: 100 },
};
const typeId = (code: string) => ACTIVITY_TYPES.find((t) => t.code === code)!.id;
const internalType = (description: string) =>
  /Capacitación/.test(description)
    ? "CI"
    : /ocumentación/.test(description)
      ? "DC"
      : /Planeación/.test(description)
        ? "PY"
        : "OT";

type Row = typeof activities.$inferInsert;

/** Splits [from, to) in one or two pieces on half-hour marks, each at least an hour long. */
function split(rng: Random, from: number, to: number, pieces: number): [number, number][] {
  if (pieces === 1 || to - from < 120) return [[from, to]];
  const cut = from + 30 * rng.int(2, (to - from) / 30 - 2);
  return [
    [from, cut],
    [cut, to],
  ];
}

export async function buildActivities(tx: Tx, ctx: ActivityContext): Promise<{ activities: number; frozen: number }> {
  const { rng, today } = ctx;
  const currentMonday = mondayOf(today);
  const firstDay = addDays(currentMonday, -7 * WEEKS_BACK);
  /** Days before this one belong to closed weeks. */
  const openFrom = addDays(currentMonday, -7 * OPEN_WEEKS);

  const workingDays: string[] = [];
  for (let d = firstDay; d <= today; d = addDays(d, 1)) {
    const dow = dayOfWeek(d);
    if (dow >= 1 && dow <= 5 && !ctx.holidays.has(d)) workingDays.push(d);
  }

  const frozenMonths: { starts_on: string; ends_on: string }[] = [];
  for (let m = firstOfMonth(firstDay); lastOfMonth(m) < openFrom; m = addDays(lastOfMonth(m), 1)) {
    frozenMonths.push({ starts_on: m, ends_on: lastOfMonth(m) });
  }

  const rows: Row[] = [];
  const frozenRows: (typeof frozen_periods.$inferInsert)[] = [];
  let ticket = 3400;

  for (const employee of ctx.employees) {
    // The projects this person works on: their own as PM or responsible, plus a couple more.
    const own = ctx.projects.filter((p) => p.pmId === employee.id || p.rapeId === employee.id);
    const mine = [...new Set([...own.slice(0, 2), ...rng.shuffle(ctx.projects).slice(0, 2)])].slice(0, 3);
    // A vacation block of 1–3 days for about half the staff.
    const vacation = new Set<string>();
    if (rng.chance(0.5) && workingDays.length > 5) {
      const start = rng.int(0, workingDays.length - 4);
      for (let k = 0; k < rng.int(1, 3); k++) vacation.add(workingDays[start + k]);
    }

    const firstOfEmployee = rows.length;
    for (const day of workingDays) {
      const base = {
        employee_id: employee.id,
        is_editable: day >= openFrom,
        update_by: employee.userId,
      };
      const fits = (end: number) => day < today || end <= ctx.nowMinutes;
      if (vacation.has(day)) {
        if (fits(DAY_END)) {
          rows.push({
            ...base,
            begins_at: zonedTime(day, DAY_START),
            ends_at: zonedTime(day, DAY_END),
            action_type: "vacation",
            description: VACATION_DESCRIPTION,
          });
        }
        continue;
      }
      const lunch = rng.pick([13 * 60 + 30, 14 * 60, 14 * 60 + 30]);
      const monday = dayOfWeek(day) === 1;
      const morning = monday
        ? ([
            [DAY_START, DAY_START + 60],
            [DAY_START + 60, lunch],
          ] as [number, number][])
        : split(rng, DAY_START, lunch, rng.chance(0.5) ? 2 : 1);
      const afternoon = split(rng, lunch + 60, DAY_END, rng.chance(0.4) ? 2 : 1);
      const slots = [...morning, ...afternoon];
      const project = mine.length ? rng.pick(mine) : undefined;

      slots.forEach(([from, to], index) => {
        if (!fits(to)) return;
        const slot = {
          ...base,
          begins_at: zonedTime(day, from),
          ends_at: zonedTime(day, to),
        };
        if (monday && index === 0) {
          const description = INTERNAL_DESCRIPTIONS[0];
          rows.push({
            ...slot,
            action_type: "internal",
            description,
            activity_type_catalog_id: typeId("OT"),
            ownerable_type: "Client",
            ownerable_id: ctx.defaultCustomerId,
            is_favorite: day >= addDays(currentMonday, -7),
          });
          return;
        }
        let action = rng.weighted(ACTION_WEIGHTS[employee.profile]);
        if (action === "project" && !project) action = "internal";
        switch (action) {
          case "project": {
            const p = project!;
            const code = rng.weighted(PROJECT_TYPE_WEIGHTS[employee.profile]);
            const description = rng
              .pick(PROJECT_DESCRIPTIONS[code])
              .replace("{feature}", rng.pick(p.features))
              .replace("{client}", p.clientName);
            rows.push({
              ...slot,
              action_type: "project",
              description,
              activity_type_catalog_id: typeId(code),
              project_id: p.id,
              ownerable_type: "Client",
              ownerable_id: p.clientId,
              product_catalog_id: p.productId,
            });
            return;
          }
          case "support": {
            const assigned = employee.assigned.length && rng.chance(0.7) ? rng.pick(employee.assigned) : undefined;
            const target = assigned
              ? {
                  clientId: assigned.client_id,
                  productId: assigned.product_catalog_id,
                }
              : rng.pick(ctx.supportable);
            const issue = rng.pick(SUPPORT_ISSUES);
            const id = String(ticket++);
            rows.push({
              ...slot,
              action_type: "support",
              description: `${issue} (${ctx.clientName(target.clientId)})`,
              activity_type_catalog_id: typeId("ST"),
              ownerable_type: "Client",
              ownerable_id: target.clientId,
              product_catalog_id: target.productId,
              ticket_id: id,
              ticket_name: issue,
            });
            return;
          }
          case "quote": {
            const toProspect = rng.chance(0.6);
            const owner = toProspect ? rng.pick(ctx.prospects) : undefined;
            const client = owner ? undefined : rng.pick(ctx.supportable);
            const productId = client ? client.productId : rng.pick(ctx.quotableProductIds);
            const ownerName = owner ? owner.name : ctx.clientName(client!.clientId);
            const description = rng
              .pick(QUOTE_DESCRIPTIONS)
              .replace("{product}", ctx.productName(productId))
              .replace("{owner}", ownerName);
            rows.push({
              ...slot,
              action_type: "quote",
              description,
              ownerable_type: owner ? "Prospect" : "Client",
              ownerable_id: owner ? owner.id : client!.clientId,
              product_catalog_id: productId,
            });
            return;
          }
          case "rh": {
            rows.push({
              ...slot,
              action_type: "rh",
              description: rng.pick(RH_DESCRIPTIONS),
              ownerable_type: "Client",
              ownerable_id: ctx.defaultCustomerId,
            });
            return;
          }
          default: {
            const description = rng.pick(INTERNAL_DESCRIPTIONS.slice(1));
            rows.push({
              ...slot,
              action_type: "internal",
              description,
              activity_type_catalog_id: typeId(internalType(description)),
              ownerable_type: "Client",
              ownerable_id: ctx.defaultCustomerId,
            });
          }
        }
      });
    }
    // What this person left unlogged last week (drawn like every other day, so the rest of the demo does not
    // change, then left out): its last working day, or the afternoon of the one before, so a holiday on a
    // Thursday or Friday moves them.
    const lastWeekDays = workingDays.filter((d) => d >= addDays(currentMonday, -7) && d < currentMonday);
    const day = lastWeekDays[lastWeekDays.length - (employee.shortLastWeek === "friday" ? 1 : 2)];
    if (employee.shortLastWeek && day) {
      const from = zonedTime(day, employee.shortLastWeek === "friday" ? 0 : 14 * 60).getTime();
      const to = zonedTime(addDays(day, 1), 0).getTime();
      const kept = rows
        .splice(firstOfEmployee)
        .filter((r) => (r.begins_at as Date).getTime() < from || (r.begins_at as Date).getTime() >= to);
      rows.push(...kept);
    }

    for (let week = WEEKS_BACK; week > OPEN_WEEKS; week--) {
      const starts = addDays(currentMonday, -7 * week);
      frozenRows.push({
        employee_id: employee.id,
        kind: "week",
        starts_on: starts,
        ends_on: addDays(starts, 6),
        closed_by: ctx.adminUserId,
        created_at: zonedTime(addDays(starts, 7), 10 * 60),
      });
    }
    for (const month of frozenMonths) {
      frozenRows.push({
        employee_id: employee.id,
        kind: "month",
        ...month,
        closed_by: ctx.adminUserId,
        created_at: zonedTime(addDays(month.ends_on, 5), 10 * 60),
      });
    }
  }

  await insertChunked(rows, 500, (slice) => tx.insert(activities).values(slice));
  if (frozenRows.length) await tx.insert(frozen_periods).values(frozenRows);
  return { activities: rows.length, frozen: frozenRows.length };
}
