/**
 * bench/generate: fills a database with a large firm for the benchmarks.
 *
 *   npx tsx bench/generate.ts [--scale 1] [--seed 42] [--until 2026-11-23] [--db sia_bench] [--fresh]
 *   npx tsx bench/generate.ts --embedded --scale 0.05 [--data-dir .bench/embedded]
 *
 * Scale 1 is the firm SIA is sized for: 200 employees, five years of working days (~2,000,000 activities),
 * 10,000 clients, 20,000 projects, 40,000 invoices, 5,000 quotations, 5,000 licences, 1,000 assignments.
 * Everything is written by set-based SQL (generate_series) in the database itself; every "random" choice
 * is a hash of the seed and the row's coordinates (hashint8extended), so the same seed and end date give
 * the same data. Realism of the demo: weekends and Mexico's official holidays have no activities, an
 * employee's activities never overlap (fixed slots of the working day; the exclusion constraint checks
 * it), and every month before the end date's month is frozen.
 *
 * PostgreSQL: DATABASE_URL names the server; the database `--db` (default sia_bench) is created there
 * (`--fresh` drops it first), migrated with the project's migrations, then filled. A table bench_meta
 * records what was generated, so bench/run.ts only generates again when the scale or seed differ.
 */
import fs from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { hashPassword } from "../server/auth/passwords";
import { type Database, openPglite, openPostgres } from "../server/db/client";
import { mexicanHolidays, seedBase } from "../server/db/seed";
import { adminUrl, withDatabase } from "../tests/support/database-url";

export const BENCH_EMAIL = "bench@sia.local";
export const BENCH_PASSWORD = "bench-secreto";
const ROOT = path.resolve(import.meta.dirname, "..");

export interface GenerateOptions {
  scale: number;
  seed: number;
  /** The last day with activities ('YYYY-MM-DD'); five years back from it. */
  until: string;
}

export interface GenerateFigures extends GenerateOptions {
  employees: number;
  clients: number;
  projects: number;
  activities: number;
  seconds: number;
}

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** The Monday of the current week (UTC date): the default end of the generated history. */
export const thisMonday = () => {
  const today = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
  return iso(today - ((new Date(today).getUTCDay() + 6) % 7) * DAY);
};

export const sizes = (scale: number) => ({
  employees: Math.max(2, Math.round(200 * scale)),
  clients: Math.max(20, Math.round(10_000 * scale)),
  projects: Math.max(40, Math.round(20_000 * scale)),
  prospects: Math.max(10, Math.round(1_000 * scale)),
});

const list = (items: string[]) => `array[${items.map((s) => `'${s.replace(/'/g, "''")}'`).join(",")}]`;
const COMPANY_A = list([
  "Grupo",
  "Comercializadora",
  "Servicios",
  "Industrias",
  "Constructora",
  "Distribuidora",
  "Consultores",
  "Transportes",
  "Alimentos",
  "Farmacéutica",
  "Logística",
  "Inmobiliaria",
]);
const COMPANY_B = list([
  "del Bajío",
  "Azteca",
  "Peninsular",
  "del Pacífico",
  "Norteña",
  "Jalisciense",
  "Regiomontana",
  "Poblana",
  "Oaxaqueña",
  "del Golfo",
  "Tapatía",
  "Sonorense",
  "Mexiquense",
  "Veracruzana",
  "Queretana",
  "Yucateca",
]);
const COMPANY_C = list(["S.A. de C.V.", "S.C.", "S. de R.L.", "S.A.P.I. de C.V."]);
const FIRST = list([
  "María",
  "José",
  "Guadalupe",
  "Juan",
  "Fernanda",
  "Luis",
  "Ana",
  "Carlos",
  "Sofía",
  "Jorge",
  "Valeria",
  "Miguel",
  "Daniela",
  "Ricardo",
  "Paola",
  "Alejandro",
  "Ximena",
  "Eduardo",
  "Regina",
  "Héctor",
]);
const LAST = list([
  "Hernández",
  "García",
  "Martínez",
  "López",
  "González",
  "Pérez",
  "Rodríguez",
  "Sánchez",
  "Ramírez",
  "Cruz",
  "Flores",
  "Gómez",
  "Morales",
  "Vázquez",
  "Jiménez",
  "Reyes",
  "Díaz",
  "Torres",
  "Gutiérrez",
  "Ruiz",
  "Mendoza",
  "Aguilar",
  "Ortiz",
  "Castillo",
]);
const PROJECT_KIND = list([
  "Implementación de nómina",
  "Migración CFDI 4.0",
  "Timbrado masivo",
  "Conciliación bancaria",
  "Portal de proveedores",
  "Recepción de facturas",
  "Integración con SAP",
  "Tablero de cobranza",
  "Actualización de versión",
  "Capacitación de usuarios",
  "Automatización de pólizas",
  "Complemento de pagos",
]);
const DESCRIPTIONS = list([
  "Revisión de requerimientos con el cliente",
  "Desarrollo de la interfaz de captura",
  "Pruebas de timbrado en ambiente de pruebas",
  "Ajustes al layout del reporte",
  "Reunión de seguimiento semanal",
  "Documentación del proceso de cierre",
  "Corrección de errores reportados",
  "Configuración del certificado de sello digital",
  "Carga inicial de catálogos",
  "Validación de complementos de pago",
  "Soporte por llamada: error al timbrar",
  "Análisis de la conciliación mensual",
  "Capacitación al área de cuentas por pagar",
  "Revisión de la bitácora de envíos",
  "Preparación de la cotización",
  "Reunión interna de planeación",
  "Entrevista de reclutamiento",
  "Migración de datos históricos",
]);
const POSITIONS = ["Desarrollador", "Consultor", "Soporte", "Gerente de proyecto", "Administración", "Ventas"];
const WORKSPACES = ["Desarrollo", "Consultoría", "Soporte", "Comercial", "Administración"];
const PRODUCTS = [
  "Emisión CFDI",
  "Recepción CFDI",
  "Nómina",
  "Conciliación",
  "Portal Proveedores",
  "Cobranza",
  "Pagos",
  "Contabilidad",
  "Inventarios",
  "Tesorería",
  "Buzón Fiscal",
  "Addendas",
  "Carta Porte",
  "Retenciones",
  "Mesa Electrónica",
  "Reportes BI",
  "Expedientes",
  "Firma Electrónica",
];
const STATES = list([
  "requerimiento",
  "propuesta",
  "en_ejecucion",
  "validacion_cliente",
  "autorizacion_cliente",
  "garantia",
  "terminado",
  "terminado",
  "terminado",
  "cancelado",
  "no_autorizado",
]);
/** Working-day slots (local hour of start); lunch at 14:00. */
const SLOTS = [9, 10, 11, 12, 13, 15, 16, 17];

/** Statement helper: the generator's SQL has no user input (numbers and fixed word lists only). */
const run = (db: Database, text: string) => db.rows(sql.raw(text));

export async function generate(db: Database, options: GenerateOptions, log = console.log): Promise<GenerateFigures> {
  const started = performance.now();
  const { scale, seed, until } = options;
  const n = sizes(scale);
  const from = iso(Date.parse(`${until}T00:00:00Z`) - 5 * 365 * DAY - DAY);
  const step = async (label: string, work: () => Promise<unknown>) => {
    const t0 = performance.now();
    await work();
    log(`  ${label}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  };
  await seedBase(db.db);
  // r(k): a uniform number in [0, 1) from the seed and a key; the same key always gives the same number.
  await run(
    db,
    `create or replace function bench_r(k bigint) returns float8 language sql immutable parallel safe as
     $$ select (hashint8extended(k, ${seed}) & 2147483647)::float8 / 2147483648 $$`,
  );
  const digest = await hashPassword(BENCH_PASSWORD);
  await step("catálogos, usuarios y empleados", async () => {
    await run(db, `insert into workspaces (name) select unnest(${list(WORKSPACES)}) on conflict do nothing`);
    await run(db, `insert into employee_positions (name) select unnest(${list(POSITIONS)}) on conflict do nothing`);
    await run(
      db,
      `insert into client_groups (name) values ('Gobierno'), ('Sector Financiero'), ('Industria'), ('Comercio') on conflict do nothing`,
    );
    await run(
      db,
      `insert into project_types (name, color_tag) values ('Implementación', '#1565c0'), ('Soporte anual', '#2e7d32'), ('Desarrollo a la medida', '#6a1b9a'), ('Capacitación', '#ef6c00') on conflict do nothing`,
    );
    await db.rows(sql`insert into users (name, email, password_digest, administrator_role, operator_role, finance_role)
      select case when g = 1 then 'Administración Bench' else (${sql.raw(FIRST)})[1 + floor(bench_r(1000000 + g) * 20)::int] || ' ' || (${sql.raw(LAST)})[1 + floor(bench_r(2000000 + g) * 24)::int] || ' ' || (${sql.raw(LAST)})[1 + floor(bench_r(3000000 + g) * 24)::int] end,
        case when g = 1 then ${BENCH_EMAIL} else 'empleado' || g || '@bench.sia.local' end,
        ${digest}, g = 1, g % 10 = 2, g % 25 = 3
      from generate_series(1, ${n.employees}) g`);
    await run(
      db,
      `insert into employees (name, employee_code, user_id, is_active, workspace_id, employee_position_id, assignable, is_rape)
       select u.name, 'E' || lpad(u.rn::text, 5, '0'), u.id, u.rn = 1 or bench_r(4000000 + u.rn) > 0.03,
         -- Desarrollo is the big team (six in ten), the rest share the other four
         (select id from workspaces order by id offset (case when u.rn % 10 < 6 then 0 else 1 + u.rn % 4 end) limit 1),
         (select id from employee_positions order by id offset (u.rn % ${POSITIONS.length}) limit 1),
         u.rn % 3 <> 0, u.rn % 7 = 0
       from (select id, name, row_number() over (order by id) as rn from users where email like '%sia.local') u`,
    );
    await run(
      db,
      `insert into products (product_code, name, employee_id, is_selectable)
       select 'PR' || lpad(i::text, 3, '0'), p, (select min(id) from employees), true
       from unnest(${list(PRODUCTS)}) with ordinality as t(p, i) on conflict do nothing`,
    );
    await run(
      db,
      `insert into prospects (name) select 'Prospecto ' || g || ' ' || (${COMPANY_B})[1 + floor(bench_r(5000000 + g) * 16)::int] from generate_series(1, ${n.prospects}) g`,
    );
  });
  await step(`${n.clients} clientes`, () =>
    run(
      db,
      `insert into clients (name, client_code, rfc, complete_name, email, is_production_ready, client_group_id)
       select nm, 'C' || lpad(g::text, 6, '0'),
         upper(substr(md5(g::text || '${seed}'), 1, 3)) || to_char(date '1990-01-01' + (g % 9000), 'YYMMDD') || upper(substr(md5(g::text), 1, 3)),
         nm || ' ' || (${COMPANY_C})[1 + floor(bench_r(6000000 + g) * 4)::int],
         'contacto' || g || '@cliente' || g || '.mx', bench_r(7000000 + g) < 0.8,
         (select id from client_groups order by id offset (g % 4) limit 1)
       from (select g, (${COMPANY_A})[1 + floor(bench_r(8000000 + g) * 12)::int] || ' ' || (${COMPANY_B})[1 + floor(bench_r(9000000 + g) * 16)::int] || ' ' || g as nm
             from generate_series(1, ${n.clients}) g) s`,
    ),
  );
  await run(db, `update app_settings set default_customer_id = (select min(id) from clients) where id = 1`);
  await step(`${n.projects} proyectos, facturas, cotizaciones, licencias y asignaciones`, async () => {
    await run(
      db,
      `insert into projects (project_code, name, project_date, eta, client_id, project_type_catalog_id, product_catalog_id, rape_id, pm_id, state, color_tag)
       select 'PY-' || lpad(g::text, 6, '0'), (${PROJECT_KIND})[1 + floor(bench_r(10000000 + g) * 12)::int] || ' ' || g,
         d, d + 30 + floor(bench_r(11000000 + g) * 120)::int,
         (select min(id) from clients) + floor(bench_r(12000000 + g) * ${n.clients})::int,
         (select min(id) from project_types) + (g % 4),
         (select min(id) from products) + floor(bench_r(13000000 + g) * ${PRODUCTS.length})::int,
         (select min(id) from employees) + floor(bench_r(14000000 + g) * ${n.employees})::int,
         (select min(id) from employees) + floor(bench_r(15000000 + g) * ${n.employees})::int,
         (${STATES})[1 + floor(bench_r(16000000 + g) * 11)::int], '#1565c0'
       from (select g, date '${from}' + floor(bench_r(17000000 + g) * 1800)::int as d from generate_series(1, ${n.projects}) g) s`,
    );
    await run(
      db,
      `insert into invoices (folio, date_of_invoice, percentage_value, state, project_id)
       select 'F-' || p.id || '-' || k, p.project_date + 30 * k, 50,
         (array['pendiente','enviada','resuelto','resuelto','cancelada'])[1 + floor(bench_r(18000000 + p.id * 2 + k) * 5)::int], p.id
       from projects p cross join generate_series(1, 2) k`,
    );
    await run(
      db,
      `insert into quotations (contact_name, product_catalog_id, state, client_id)
       select (${FIRST})[1 + floor(bench_r(19000000 + g) * 20)::int] || ' ' || (${LAST})[1 + floor(bench_r(20000000 + g) * 24)::int],
         (select min(id) from products) + floor(bench_r(21000000 + g) * ${PRODUCTS.length})::int, 'demo',
         (select min(id) from clients) + floor(bench_r(22000000 + g) * ${n.clients})::int
       from generate_series(1, ${Math.round(n.clients / 2)}) g`,
    );
    await run(
      db,
      `insert into app_licenses (client_id, entity_name, entity_rfc, environment, num_licenses, license_valid_until, license_type, product_catalog_id, modules)
       select c.id, c.complete_name, c.rfc, case when c.id % 5 = 0 then 'test' else 'prod' end, 1 + (c.id % 20),
         date '${until}' + (c.id % 700) - 200, (array['rent','concurrent_users','named_users'])[1 + c.id % 3],
         (select min(id) from products) + (c.id % ${PRODUCTS.length}), array['Emission','Reception']::text[]
       from clients c where c.id % 2 = 0`,
    );
    await run(
      db,
      `insert into assignments (employee_id, client_id, product_catalog_id, start_on, end_on)
       select e.id, (select min(id) from clients) + floor(bench_r(23000000 + e.id * 10 + k) * ${n.clients})::int,
         (select min(id) from products) + floor(bench_r(24000000 + e.id * 10 + k) * ${PRODUCTS.length})::int,
         date '${from}' + k * 365, date '${from}' + k * 365 + 364
       from employees e cross join generate_series(0, 4) k`,
    );
  });
  const years = Array.from(
    { length: Number(until.slice(0, 4)) - Number(from.slice(0, 4)) + 1 },
    (_, i) => Number(from.slice(0, 4)) + i,
  );
  const holidays = years.flatMap((y) => mexicanHolidays(y));
  await run(
    db,
    `insert into holydays (date, name) values ${holidays.map((h) => `('${h.date}', '${h.name.replace(/'/g, "''")}')`).join(", ")} on conflict do nothing`,
  );
  // Bulk load: the activity indexes and the exclusion constraint are built once afterwards (same definitions).
  const indexes = await db.rows<{ name: string; def: string }>(
    sql`select indexname as name, indexdef as def from pg_indexes where tablename = 'activities' and indexname <> 'activities_pkey'
        and indexname not in (select conname from pg_constraint where conrelid = 'activities'::regclass)`,
  );
  const constraints = await db.rows<{ name: string; def: string }>(
    sql`select conname as name, pg_get_constraintdef(oid) as def from pg_constraint where conrelid = 'activities'::regclass and contype = 'x'`,
  );
  for (const c of constraints) await run(db, `alter table activities drop constraint ${c.name}`);
  for (const i of indexes) await run(db, `drop index ${i.name}`);
  await run(
    db,
    `create temporary table bench_days as
     select d::date as day, row_number() over (order by d) as di
     from generate_series(date '${from}', date '${until}', interval '1 day') d
     where extract(isodow from d) < 6 and d::date not in (select date from holydays)`,
  );
  const months = await db.rows<{ m: string }>(sql`select distinct to_char(day, 'YYYY-MM') as m from bench_days order by 1`);
  const t0 = performance.now();
  for (const [i, { m }] of months.entries()) {
    await run(
      db,
      `insert into activities (employee_id, begins_at, ends_at, description, activity_type_catalog_id, action_type,
         ownerable_type, ownerable_id, project_id, product_catalog_id, update_by, created_at, updated_at)
       select x.employee_id, x.b, x.b + x.dur, x.description, x.type_id, x.action_type,
         case when x.action_type in ('project','support','quote','internal','rh') then 'Client' end,
         case x.action_type when 'project' then p.client_id when 'support' then x.client_id when 'quote' then x.client_id
           else (select default_customer_id from app_settings where id = 1) end,
         case when x.action_type = 'project' then p.id end,
         case x.action_type when 'project' then p.product_catalog_id when 'support' then x.product_id when 'quote' then x.product_id end,
         x.user_id, x.b, x.b
       from (
         select e.id as employee_id, e.user_id,
           ((d.day + make_interval(hours => (array[${SLOTS.join(",")}])[s + 1]))::timestamp at time zone 'America/Mexico_City') as b,
           case when bench_r(k + 1) < 0.3 then interval '45 minutes' else interval '60 minutes' end as dur,
           (${DESCRIPTIONS})[1 + floor(bench_r(k + 2) * 18)::int] as description,
           1 + floor(bench_r(k + 3) * 12)::int as type_id,
           case when bench_r(k + 4) < 0.6 then 'project' when bench_r(k + 4) < 0.8 then 'support'
                when bench_r(k + 4) < 0.85 then 'quote' when bench_r(k + 4) < 0.95 then 'internal' else 'rh' end as action_type,
           -- the week's projects of an employee: two, alternating by slot
           ${n.projects} * bench_r((e.id::bigint * 1000 + (d.di / 5)) * 10 + (s % 2)) as project_pick,
           (select min(id) from clients) + floor(bench_r(k + 5) * ${n.clients})::int as client_id,
           (select min(id) from products) + floor(bench_r(k + 6) * ${PRODUCTS.length})::int as product_id,
           k
         from bench_days d
         cross join employees e
         cross join generate_series(0, ${SLOTS.length - 1}) s
         cross join lateral (select ((e.id::bigint * 100000 + d.di) * 10 + s) * 10 + 100000000000 as k) kk
         where to_char(d.day, 'YYYY-MM') = '${m}' and bench_r(k) < 0.97
       ) x
       left join projects p on p.id = (select min(id) from projects) + floor(x.project_pick)::int`,
    );
    if (i % 6 === 5 || i === months.length - 1) {
      const secs = (performance.now() - t0) / 1000;
      log(`  actividades: ${i + 1}/${months.length} meses (${secs.toFixed(0)} s)`);
    }
  }
  await step("índices y restricción de no traslape de actividades", async () => {
    for (const i of indexes) await run(db, i.def);
    for (const c of constraints) await run(db, `alter table activities add constraint ${c.name} ${c.def}`);
  });
  await step("meses cerrados", () =>
    run(
      db,
      `insert into frozen_periods (employee_id, kind, starts_on, ends_on, closed_by)
       select e.id, 'month', m::date, (m + interval '1 month' - interval '1 day')::date, (select min(id) from users)
       from employees e cross join generate_series(date_trunc('month', date '${from}'), date_trunc('month', date '${until}') - interval '1 month', interval '1 month') m
       on conflict do nothing`,
    ),
  );
  for (const table of [
    "activities",
    "projects",
    "clients",
    "employees",
    "users",
    "products",
    "invoices",
    "quotations",
    "app_licenses",
    "assignments",
    "prospects",
    "frozen_periods",
  ]) {
    await run(db, `select setval(pg_get_serial_sequence('${table}', 'id'), coalesce((select max(id) from ${table}), 1))`);
  }
  await step("analyze", () => run(db, "analyze"));
  const [count] = await db.rows<{ n: number }>(sql`select count(*)::int as n from activities`);
  await run(
    db,
    "create table if not exists bench_meta (scale float8, seed int, until date, activities int, generated_at timestamptz default now())",
  );
  await run(db, "delete from bench_meta");
  await db.rows(sql`insert into bench_meta (scale, seed, until, activities) values (${scale}, ${seed}, ${until}, ${count.n})`);
  return {
    ...options,
    employees: n.employees,
    clients: n.clients,
    projects: n.projects,
    activities: count.n,
    seconds: (performance.now() - started) / 1000,
  };
}

export interface BenchMeta {
  scale: number;
  seed: number;
  until: string;
  activities: number;
}
export async function readMeta(db: Database): Promise<BenchMeta | null> {
  try {
    const [row] = await db.rows<BenchMeta & { until: string | Date }>(
      sql`select scale, seed, to_char(until, 'YYYY-MM-DD') as until, activities from bench_meta limit 1`,
    );
    return row ?? null;
  } catch {
    return null;
  }
}

/** Creates (or, fresh, recreates) the bench database on the DATABASE_URL server; answers its URL. */
export async function benchDatabaseUrl(base: string, name: string, fresh: boolean): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Nombre de base inválido: ${name}`);
  const admin = await openPostgres(adminUrl(base), 1);
  try {
    if (fresh) await admin.pool?.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    const exists = await admin.pool?.query("select 1 from pg_database where datname = $1", [name]);
    if (!exists?.rowCount) await admin.pool?.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.close();
  }
  return withDatabase(base, name);
}

export function parseArgs(argv: string[]) {
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  return {
    value,
    has: (flag: string) => argv.includes(flag),
    scale: Number(value("--scale") ?? (argv.includes("--embedded") ? 0.05 : 1)),
    seed: Number(value("--seed") ?? 42),
    until: value("--until") ?? thisMonday(),
  };
}

/** Generates when the database holds nothing or another scale/seed; answers the figures or the stored meta. */
export async function ensureGenerated(db: Database, options: GenerateOptions, log = console.log): Promise<BenchMeta> {
  const meta = await readMeta(db);
  if (meta && meta.scale === options.scale && meta.seed === options.seed) {
    log(`Datos ya generados (escala ${meta.scale}, semilla ${meta.seed}, ${meta.activities} actividades).`);
    return meta;
  }
  if (meta) throw new Error(`La base tiene otra escala o semilla (${meta.scale}/${meta.seed}): use --fresh.`);
  await db.migrate();
  log(`Generando escala ${options.scale} (semilla ${options.seed}, hasta ${options.until})…`);
  const figures = await generate(db, options, log);
  log(`Listo: ${figures.activities} actividades en ${figures.seconds.toFixed(0)} s.`);
  return { scale: options.scale, seed: options.seed, until: options.until, activities: figures.activities };
}

async function cli() {
  const args = parseArgs(process.argv.slice(2));
  const options = { scale: args.scale, seed: args.seed, until: args.until };
  let db: Database;
  if (args.has("--embedded")) {
    const dataDir = path.resolve(ROOT, args.value("--data-dir") ?? ".bench/embedded");
    if (args.has("--fresh")) fs.rmSync(dataDir, { recursive: true, force: true });
    db = await openPglite({ dataDir });
  } else {
    const base = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
    db = await openPostgres(await benchDatabaseUrl(base, args.value("--db") ?? "sia_bench", args.has("--fresh")), 2);
  }
  try {
    await ensureGenerated(db, options);
  } finally {
    await db.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  cli().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
