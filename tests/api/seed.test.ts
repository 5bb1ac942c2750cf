import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyPassword } from "../../server/auth/passwords";
import type { Database } from "../../server/db/client";
import { mexicanHolidays, type SeedDemoResult, seedBase, seedDemo } from "../../server/db/seed";
import { LocalDocuments } from "../../server/ports/documents";
import { ACTIVITY_TYPES, NON_SELECTABLE_PRODUCTS, VACATION_DESCRIPTION } from "../../src/core/constants";
import { PROJECT_STATES, QUOTATION_STATES } from "../../src/core/states";
import { openTestDatabase } from "../support/app";

const PASSWORD = "demo-secreta-1";
/** Wednesday 18 March 2026, 14:00 in Mexico City: the current week starts on a holiday (16 March). */
const NOW = new Date("2026-03-18T20:00:00Z");

let database: Database;
let result: SeedDemoResult;
const one = async <T = Record<string, unknown>>(query: ReturnType<typeof sql>) => (await database.rows<T>(query))[0];
const n = async (query: ReturnType<typeof sql>) => Number((await one<{ n: number }>(query)).n);

let driveDir: string;
let drive: LocalDocuments;

beforeAll(async () => {
  database = await openTestDatabase();
  await seedBase(database.db);
  driveDir = await mkdtemp(path.join(os.tmpdir(), "sia-demo-drive-"));
  drive = new LocalDocuments(driveDir);
  result = await seedDemo(database.db, { password: PASSWORD, now: NOW, documents: drive });
  // The whole demo firm, on a machine whose other suites may be loading both cores.
}, 120_000);
afterAll(async () => {
  await database.close();
  await rm(driveDir, { recursive: true, force: true });
});

describe("mexicanHolidays", () => {
  it("computes the movable Mondays of 2026 and 2027", () => {
    expect(mexicanHolidays(2026).map((h) => h.date)).toEqual([
      "2026-01-01",
      "2026-02-02",
      "2026-03-16",
      "2026-05-01",
      "2026-09-16",
      "2026-11-16",
      "2026-12-25",
    ]);
    expect(mexicanHolidays(2027).map((h) => h.date)).toEqual([
      "2027-01-01",
      "2027-02-01",
      "2027-03-15",
      "2027-05-01",
      "2027-09-16",
      "2027-11-15",
      "2027-12-25",
    ]);
  });
  it("adds 1 October only in a year of change of federal executive", () => {
    expect(mexicanHolidays(2030).map((h) => h.date)).toContain("2030-10-01");
    expect(mexicanHolidays(2024).map((h) => h.date)).toContain("2024-10-01");
    expect(mexicanHolidays(2027).map((h) => h.date)).not.toContain("2027-10-01");
    expect(mexicanHolidays(2030).every((h) => h.name)).toBe(true);
  });
});

describe("seedBase", () => {
  it("is idempotent and keeps the settings the demo wrote", async () => {
    await seedBase(database.db);
    await seedBase(database.db);
    const types = await database.rows<{ id: number; code: string }>(sql`select id, code from activity_type_catalogs order by id`);
    expect(types).toEqual(ACTIVITY_TYPES.map((t) => ({ id: t.id, code: t.code })));
    expect(await n(sql`select count(*) n from app_settings`)).toBe(1);
    expect(await n(sql`select count(*) n from app_settings where default_customer_id is not null`)).toBe(1);
    // The sequence moved past the fixed ids.
    const [created] = await database.rows<{ id: number }>(
      sql`insert into activity_type_catalogs (code, name) values ('ZZ', 'Prueba') returning id`,
    );
    expect(created.id).toBe(13);
    await database.rows(sql`delete from activity_type_catalogs where code = 'ZZ'`);
  });
});

describe("seedDemo", () => {
  // How fast it seeds is a benchmark's business (bench/), never a timed test.
  it("seeds once and reports its figures", () => {
    expect(result.seeded).toBe(true);
    expect(result.figures).toMatchObject({
      projects: 30,
      quotations: 12,
      app_licenses: 12,
      prospects: 10,
    });
  });

  it("builds the firm: workspaces, positions, employees, bosses", async () => {
    expect(await n(sql`select count(*) n from workspaces`)).toBeGreaterThanOrEqual(3);
    expect(await n(sql`select count(*) n from workspaces where name = 'Soporte' and is_notifiable`)).toBe(1);
    expect(await n(sql`select count(*) n from employee_positions`)).toBeGreaterThanOrEqual(6);
    expect(await n(sql`select count(*) n from employees`)).toBeGreaterThanOrEqual(15);
    expect(await n(sql`select count(*) n from employees where not is_active`)).toBe(1);
    expect(await n(sql`select count(*) n from employees where is_rape`)).toBeGreaterThan(0);
    expect(await n(sql`select count(*) n from employees where assignable`)).toBeGreaterThan(0);
    expect(
      await n(
        sql`select count(*) n from bosses_workspaces b join employees e on e.id = b.employee_id and e.workspace_id = b.workspace_id`,
      ),
    ).toBeGreaterThanOrEqual(3);
    const settings = await one<{ w: number; c: number; x: number }>(
      sql`select default_workspace_id w, default_customer_id c, support_excluded_customer_id x from app_settings where id = 1`,
    );
    expect(await n(sql`select count(*) n from workspaces where id = ${settings.w}`)).toBe(1);
    expect(settings.c).not.toBe(settings.x);
  });

  it("builds customers with groups, RFCs and products", async () => {
    expect(await n(sql`select count(*) n from client_groups`)).toBe(4);
    const codes = (
      await database.rows<{ client_code: string }>(
        sql`select client_code from clients where client_code between '1001' and '1025' order by 1`,
      )
    ).map((r) => r.client_code);
    expect(codes).toEqual(Array.from({ length: 25 }, (_, i) => String(1001 + i)));
    expect(await n(sql`select count(*) n from clients where client_group_id is not null`)).toBe(25);
    expect(await n(sql`select count(*) n from clients where rfc !~ '^[A-ZÑ&]{3,4}[0-9]{6}[A-Z0-9]{3}$'`)).toBe(0);
    expect(
      await n(
        sql`select count(*) n from clients c where client_code between '1001' and '1025' and not exists (select 1 from client_product_catalogs p where p.client_id = c.id)`,
      ),
    ).toBe(0);
    for (const name of ["Siglo CD", ...NON_SELECTABLE_PRODUCTS]) {
      expect(await n(sql`select count(*) n from products where name = ${name}`)).toBe(1);
    }
    expect(await n(sql`select count(*) n from products where not is_selectable`)).toBe(3);
    expect(
      await n(sql`select count(*) n from products where not is_selectable and name not in ('SIA', 'Framework', 'SICAJAS')`),
    ).toBe(0);
    // Eight open prospects and the two the converted customers were won from.
    expect(await n(sql`select count(*) n from prospects`)).toBe(10);
    expect(await n(sql`select count(*) n from clients where prospect_id is not null`)).toBe(2);
    expect(await n(sql`select count(*) n from project_types where id = 6`)).toBe(1);
  });

  it("spreads projects over every state with a consistent stage history", async () => {
    expect(await n(sql`select count(*) n from projects`)).toBe(30);
    const states = (await database.rows<{ state: string }>(sql`select distinct state from projects`)).map((r) => r.state);
    expect(states.sort()).toEqual(Object.keys(PROJECT_STATES).sort());
    // Last stage ends in the project's state; the first starts from nothing; each starts where the previous ended.
    expect(
      await n(sql`
      select count(*) n from projects p
      where p.state <> (select to_state from project_stages s where s.project_id = p.id order by created_at desc, id desc limit 1)
         or (select from_state from project_stages s where s.project_id = p.id order by created_at, id limit 1) is not null`),
    ).toBe(0);
    expect(
      await n(sql`
      select count(*) n from (
        select from_state, lag(to_state) over (partition by project_id order by created_at, id) prev from project_stages
      ) t where prev is not null and from_state is distinct from prev`),
    ).toBe(0);
    expect(
      await n(sql`select count(*) n from projects where pm_id is null or rape_id is null or eta is null or color_tag is null`),
    ).toBe(0);
  });

  it("keeps invoices within 100% per project, with folios only when resolved", async () => {
    expect(await n(sql`select count(*) n from invoices`)).toBeGreaterThan(0);
    expect(
      await n(sql`select count(*) n from (select project_id from invoices group by 1 having sum(percentage_value) > 100) t`),
    ).toBe(0);
    expect(await n(sql`select count(*) n from invoices where (folio is not null) <> (state = 'resuelto')`)).toBe(0);
  });

  it("has quotations in every state and licences with the mesa key only on Siglo CD", async () => {
    const states = (await database.rows<{ state: string }>(sql`select distinct state from quotations`)).map((r) => r.state);
    expect(states.sort()).toEqual(Object.keys(QUOTATION_STATES).sort());
    expect(
      await n(
        sql`select count(*) n from quotations q join projects p on p.id = q.project_id where q.state = 'finalizada' and p.project_type_catalog_id = 6`,
      ),
    ).toBe(2);
    expect(await n(sql`select count(*) n from app_licenses`)).toBe(12);
    expect(
      await n(
        sql`select count(*) n from app_licenses l join products p on p.id = l.product_catalog_id where l.has_mesa_electronica_license_key and p.name <> 'Siglo CD'`,
      ),
    ).toBe(0);
    expect(await n(sql`select count(*) n from app_licenses where has_mesa_electronica_license_key`)).toBeGreaterThan(0);
    expect(await n(sql`select count(distinct license_type) n from app_licenses`)).toBe(3);
    expect(await n(sql`select count(distinct is_active) n from app_licenses`)).toBe(2);
  });

  it("assigns only assignable employees", async () => {
    expect(await n(sql`select count(*) n from assignments`)).toBeGreaterThan(0);
    expect(
      await n(sql`select count(*) n from assignments a join employees e on e.id = a.employee_id where not e.assignable`),
    ).toBe(0);
  });

  it("registers the holidays of this year and the next", async () => {
    const dates = (await database.rows<{ date: string }>(sql`select date::text date from holydays order by 1`)).map(
      (r) => r.date,
    );
    expect(dates).toEqual([...mexicanHolidays(2026), ...mexicanHolidays(2027)].map((h) => h.date));
    expect(dates).toEqual(
      expect.arrayContaining(["2026-02-02", "2026-03-16", "2026-11-16", "2027-02-01", "2027-03-15", "2027-11-15"]),
    );
  });

  it("creates the three accounts with employees and the given password", async () => {
    const accounts = await database.rows<{
      email: string;
      administrator_role: boolean;
      operator_role: boolean;
      finance_role: boolean;
      password_digest: string;
      employee_id: number | null;
    }>(sql`
      select u.email, u.administrator_role, u.operator_role, u.finance_role, u.password_digest, e.id employee_id
      from users u left join employees e on e.user_id = u.id
      where u.email in ('admin@sia.local', 'operador@sia.local', 'finanzas@sia.local') order by u.email`);
    expect(accounts.map((a) => [a.email, a.administrator_role, a.operator_role, a.finance_role])).toEqual([
      ["admin@sia.local", true, false, false],
      ["finanzas@sia.local", false, false, true],
      ["operador@sia.local", false, true, false],
    ]);
    expect(accounts.every((a) => a.employee_id !== null)).toBe(true);
    expect(new Set(accounts.map((a) => a.password_digest)).size).toBe(1);
    expect(await verifyPassword(accounts[0].password_digest, PASSWORD)).toBe(true);
  });
});

describe("seeded activities", () => {
  const local = (column: string) => sql.raw(`(${column} at time zone 'America/Mexico_City')`);

  it("covers every active employee on working days only, inside 09:00–18:00, never in the future", async () => {
    expect(await n(sql`select count(*) n from activities`)).toBeGreaterThan(1000);
    expect(
      await n(
        sql`select count(*) n from employees e where e.is_active and not exists (select 1 from activities a where a.employee_id = e.id)`,
      ),
    ).toBe(0);
    expect(
      await n(
        sql`select count(*) n from employees e where not e.is_active and exists (select 1 from activities a where a.employee_id = e.id)`,
      ),
    ).toBe(0);
    expect(await n(sql`select count(*) n from activities where extract(isodow from ${local("begins_at")}) > 5`)).toBe(0);
    expect(await n(sql`select count(*) n from activities a join holydays h on h.date = ${local("a.begins_at")}::date`)).toBe(0);
    expect(
      await n(
        sql`select count(*) n from activities where ${local("begins_at")}::time < '09:00' or ${local("ends_at")}::time > '18:00' or ${local("begins_at")}::date <> ${local("ends_at")}::date`,
      ),
    ).toBe(0);
    expect(await n(sql`select count(*) n from activities where ends_at > ${NOW.toISOString()}::timestamptz`)).toBe(0);
    const span = await one<{ first: string; last: string }>(
      sql`select min(${local("begins_at")})::date::text first, max(${local("begins_at")})::date::text last from activities`,
    );
    expect(span).toEqual({ first: "2026-01-19", last: "2026-03-18" });
    // Two to four activities a finished day (a vacation day is one); today stops at the current hour.
    const perDay = await database.rows<{ c: number; vacation: boolean }>(sql`
      select count(*)::int c, bool_or(action_type = 'vacation') vacation from activities
      where ${local("begins_at")}::date < '2026-03-18' group by employee_id, ${local("begins_at")}::date`);
    expect(perDay.filter((d) => !d.vacation).every((d) => d.c >= 2 && d.c <= 4)).toBe(true);
    expect(perDay.filter((d) => d.vacation).every((d) => d.c === 1)).toBe(true);
  });

  it("never overlaps for one employee", async () => {
    expect(
      await n(sql`
      select count(*) n from activities a join activities b
        on a.employee_id = b.employee_id and a.id < b.id and a.begins_at < b.ends_at and b.begins_at < a.ends_at`),
    ).toBe(0);
  });

  it("follows the action type rules of SPEC §5", async () => {
    const settings = await one<{ c: number; x: number }>(
      sql`select default_customer_id c, support_excluded_customer_id x from app_settings`,
    );
    const types = (await database.rows<{ action_type: string }>(sql`select distinct action_type from activities`)).map(
      (r) => r.action_type,
    );
    expect(types.sort()).toEqual(["internal", "project", "quote", "rh", "support", "vacation"]);
    expect(
      await n(
        sql`select count(*) n from activities where action_type = 'vacation' and (ownerable_id is not null or ownerable_type is not null or description <> ${VACATION_DESCRIPTION})`,
      ),
    ).toBe(0);
    expect(
      await n(sql`
      select count(*) n from activities a left join projects p on p.id = a.project_id
      where a.action_type = 'project' and (p.id is null or a.activity_type_catalog_id is null or a.ownerable_type <> 'Client'
        or a.ownerable_id <> p.client_id or a.product_catalog_id is distinct from p.product_catalog_id)`),
    ).toBe(0);
    expect(
      await n(sql`
      select count(*) n from activities a left join products p on p.id = a.product_catalog_id
      where a.action_type = 'support' and (a.ownerable_type <> 'Client' or a.ownerable_id in (${settings.c}, ${settings.x}) or p.id is null or not p.is_selectable)`),
    ).toBe(0);
    expect(
      await n(sql`
      select count(*) n from activities a left join products p on p.id = a.product_catalog_id
      where a.action_type = 'quote' and (a.ownerable_type not in ('Client', 'Prospect') or p.id is null or not p.is_selectable)`),
    ).toBe(0);
    expect(
      await n(
        sql`select count(*) n from activities where action_type in ('internal', 'rh') and (ownerable_type <> 'Client' or ownerable_id <> ${settings.c})`,
      ),
    ).toBe(0);
    expect(
      await n(
        sql`select count(*) n from activities where product_catalog_id in (select id from products where not is_selectable)`,
      ),
    ).toBe(0);
  });

  it("closes weeks older than four and freezes the months before them; their activities are not editable", async () => {
    expect(await n(sql`select count(*) n from frozen_periods where kind = 'week'`)).toBe(4 * 17);
    const months = await database.rows<{ starts_on: string; ends_on: string }>(
      sql`select distinct starts_on::text, ends_on::text from frozen_periods where kind = 'month'`,
    );
    expect(months).toEqual([{ starts_on: "2026-01-01", ends_on: "2026-01-31" }]);
    expect(
      await n(sql`
      select count(*) n from activities a
      where a.is_editable = exists (
        select 1 from frozen_periods f where f.employee_id = a.employee_id
          and ${local("a.begins_at")}::date between f.starts_on and f.ends_on)`),
    ).toBe(0);
    expect(await n(sql`select count(*) n from activities where is_editable`)).toBeGreaterThan(0);
  });
});

describe("seedDemo: links that lead somewhere", () => {
  it("makes every record's folder on the installation's drive, where its link opens it", async () => {
    const rows = await database.rows<{ kind: string; name: string; id: string | null; url: string | null }>(sql`
      select 'client' kind, name, drive_root_id id, drive_root_url url from clients
      union all select 'project', name, drive_root_id, drive_root_url from projects
      union all select 'prospect', name, drive_root_id, drive_root_url from prospects
        where not exists (select 1 from clients c where c.prospect_id = prospects.id)`);
    expect(rows.length).toBe(27 + 30 + 8);
    for (const row of rows) {
      expect(row.id, `${row.kind} ${row.name}`).toBeTruthy();
      const folder = await drive.info(row.id!);
      expect(folder?.kind, `${row.kind} ${row.name}`).toBe("folder");
      expect(row.url).toBe(drive.getUrl(row.id!));
    }
    // A project's folder is in its client's «Proyectos», with the nine numbered folders.
    const [project] = await database.rows<{ id: string; client: string }>(
      sql`select p.drive_root_id id, c.drive_root_id client from projects p join clients c on c.id = p.client_id limit 1`,
    );
    expect(project.id.startsWith(`${project.client}/Proyectos/`)).toBe(true);
    expect((await drive.list(project.id)).items).toHaveLength(9);
    expect(
      await n(sql`select count(*) n from clients where drive_root_url like '%google.com%'
        or drive_root_id like 'demo-%'`),
    ).toBe(0);
  });

  it("links demo invitations to SIA's own .ics, never to a calendar that does not have them", async () => {
    const events = await database.rows<{ id: number; event_url: string }>(
      sql`select id, event_url from quotations where event is not null order by id`,
    );
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) expect(e.event_url).toBe(`/api/v1/quotations/${e.id}/invitation.ics`);
  });

  it("joins each approved quotation to the client its own prospect became", async () => {
    const approved = await database.rows<{ prospect: string; client: string; linked: number | null; prospect_id: number }>(sql`
      select p.name prospect, c.name client, c.prospect_id linked, q.prospect_id from quotations q
      join prospects p on p.id = q.prospect_id join clients c on c.id = q.client_id`);
    expect(approved.length).toBe(2);
    for (const q of approved) {
      expect(q.prospect).toBe(q.client);
      expect(q.linked).toBe(q.prospect_id);
    }
  });
});

describe("seedDemo again", () => {
  it("does nothing once there are users", async () => {
    const before = await n(
      sql`select (select count(*) from activities) + (select count(*) from clients) + (select count(*) from users) n`,
    );
    const again = await seedDemo(database.db, { password: PASSWORD, now: NOW });
    expect(again.seeded).toBe(false);
    expect(
      await n(sql`select (select count(*) from activities) + (select count(*) from clients) + (select count(*) from users) n`),
    ).toBe(before);
  });

  it("seeds relative to today's date when no date is given", async () => {
    const fresh = await openTestDatabase();
    try {
      const run = await seedDemo(fresh.db, { password: PASSWORD });
      expect(run.seeded).toBe(true);
      // Without a drive of its own, no record gets a folder link (a dead one would be worse).
      expect(
        Number(
          (
            await fresh.rows<{ n: number | string }>(
              sql`select (select count(*) from clients where drive_root_url is not null)
              + (select count(*) from projects where drive_root_url is not null)
              + (select count(*) from prospects where drive_root_url is not null) as n`,
            )
          )[0].n,
        ),
      ).toBe(0);
      const year = Number(
        new Intl.DateTimeFormat("en-CA", {
          timeZone: "America/Mexico_City",
          year: "numeric",
        }).format(new Date()),
      );
      const years = (
        await fresh.rows<{ y: number }>(sql`select distinct extract(year from date)::int y from holydays order by 1`)
      ).map((r) => r.y);
      expect(years).toEqual([year, year + 1]);
      const future = await fresh.rows<{ n: number }>(sql`select count(*)::int n from activities where ends_at > now()`);
      expect(future[0].n).toBe(0);
      expect((await fresh.rows<{ n: number }>(sql`select count(*)::int n from activity_type_catalogs`))[0].n).toBe(12);
    } finally {
      await fresh.close();
    }
  }, 60_000);
});
