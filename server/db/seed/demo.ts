/** The demo firm's data, built in one transaction with bulk inserts. */
import { eq } from "drizzle-orm";
import {
  CLIENT_FOLDERS,
  LICENSE_MODULES,
  LICENSE_TYPES,
  MESA_ELECTRONICA_PRODUCT_NAME,
  PROJECT_FOLDERS,
  PROSPECT_FOLDER_PREFIX,
} from "../../../src/core/constants";
import { quotationInvitationPath } from "../../../src/core/resources";
import type { InvoiceState, ProjectState, QuotationState } from "../../../src/core/states";
import { addDays, wallClock, zonedTime } from "../../../src/core/week";
import { type DocumentsPort, type DriveItem, ensureStructure, safeFolderName } from "../../ports/documents/port";
import type { Tx } from "../client";
import {
  app_licenses,
  app_settings,
  assignments,
  bosses_workspaces,
  client_groups,
  client_product_catalogs,
  clients,
  employee_positions,
  employees,
  estimated_work_hours,
  holydays,
  invoices,
  notifications,
  products,
  project_stages,
  project_types,
  projects,
  prospects,
  quotations,
  users,
  workspaces,
} from "../schema";
import { type ActivityContext, buildActivities } from "./activities";
import { createRandom, mexicanHolidays, type Random } from "./calendar";
import {
  CLIENT_GROUPS,
  CLIENTS,
  COLOR_TAGS,
  CONVERTED_CLIENTS,
  DEFAULT_WORKSPACE,
  EMPLOYEES,
  FEATURES,
  FIRM,
  GROUP_PRODUCTS,
  POSITIONS,
  PRODUCTS,
  PROJECT_NAMES,
  PROJECT_TYPES,
  PROSPECTS,
  SUPPORT_EXCLUDED,
  WORKSPACES,
} from "./data";
import { resetSequence } from "./sequences";

export interface DemoFigures {
  workspaces: number;
  employee_positions: number;
  employees: number;
  users: number;
  client_groups: number;
  clients: number;
  products: number;
  prospects: number;
  project_types: number;
  projects: number;
  project_stages: number;
  invoices: number;
  quotations: number;
  app_licenses: number;
  assignments: number;
  holydays: number;
  activities: number;
  frozen_periods: number;
}

const SEED = 0x51a2026;

const ascii = (text: string) => text.normalize("NFD").replace(/[\u0300-\u036f]/g, "");

function emailFor(name: string) {
  const parts = ascii(name).toLowerCase().split(/\s+/);
  return `${parts[0]}.${parts[parts.length - 2]}@sia.local`;
}

const RFC_STOP = new Set([
  "DE",
  "DEL",
  "LA",
  "LAS",
  "LOS",
  "Y",
  "EL",
  "EN",
  "SA",
  "CV",
  "RL",
  "SC",
  "AP",
  "AC",
  "SAPI",
  "SOFOM",
  "ENR",
  "S",
  "A",
  "C",
  "V",
  "R",
  "L",
  "P",
  "I",
  "E",
  "N",
]);
/** A valid-format RFC of a legal person: 3 letters, YYMMDD, 3-character homoclave. */
function rfcFor(name: string, rng: Random) {
  const words = ascii(name)
    .toUpperCase()
    .replace(/[^A-Z ]/g, " ")
    .split(/\s+/)
    .filter((w) => w && !RFC_STOP.has(w));
  const letters = `${words.map((w) => w[0]).join("")}XXX`.slice(0, 3);
  const date = `${String(rng.int(85, 99) % 100).padStart(2, "0")}${String(rng.int(1, 12)).padStart(2, "0")}${String(rng.int(1, 28)).padStart(2, "0")}`;
  const alnum = "ABCDEFGHJKLMNPQRSTUVWXYZ123456789";
  const homo = `${rng.pick([...alnum])}${rng.pick([...alnum])}${rng.pick([..."A0123456789"])}`;
  return `${letters}${date}${homo}`;
}

const CONTACTS = [
  "Lic. Carmen Valdez Ruiz",
  "C.P. Javier Espinoza Lara",
  "Ing. Rosa María Treviño",
  "Mtro. Alfonso Quiroz Beltrán",
  "Lic. Adriana Solís Zamora",
  "C.P. Ernesto Cabrera Lugo",
  "Ing. Lucía Paredes Orozco",
  "Lic. Raúl Benítez Carrillo",
  "C.P. Verónica Ledesma Ríos",
  "Ing. Tomás Fuentes Arreola",
  "Lic. Claudia Meléndez Vega",
  "C.P. Samuel Robles Ávila",
];

/** The happy path of a project; cancelado and no_autorizado branch off it. */
const HAPPY_PATH: ProjectState[] = [
  "requerimiento",
  "propuesta",
  "en_ejecucion",
  "validacion_cliente",
  "autorizacion_cliente",
  "garantia",
  "terminado",
];
function pathTo(state: ProjectState, rework: boolean): ProjectState[] {
  if (state === "cancelado") return ["requerimiento", "propuesta", "en_ejecucion", "cancelado"];
  if (state === "no_autorizado") return ["requerimiento", "propuesta", "no_autorizado"];
  const path = HAPPY_PATH.slice(0, HAPPY_PATH.indexOf(state) + 1);
  // The client sent it back once: autorizacion_cliente → en_ejecucion → … (SPEC §4 allows the return).
  if (rework && path.includes("garantia")) path.splice(5, 0, "en_ejecucion", "validacion_cliente", "autorizacion_cliente");
  return path;
}
const STAGE_EVENT: Record<ProjectState, string> = {
  requerimiento: "crear",
  propuesta: "enviar_propuesta",
  en_ejecucion: "iniciar_ejecucion",
  validacion_cliente: "enviar_a_validacion",
  autorizacion_cliente: "solicitar_autorizacion",
  garantia: "iniciar_garantia",
  terminado: "terminar",
  cancelado: "cancelar",
  no_autorizado: "no_autorizar",
};
const STAGE_COMMENT: Record<ProjectState, string> = {
  requerimiento: "Se registra el requerimiento del cliente.",
  propuesta: "Se envía la propuesta técnica y económica al cliente.",
  en_ejecucion: "El cliente autorizó la propuesta y la orden de compra; inicia la ejecución.",
  validacion_cliente: "Se entregan los entregables al cliente para su validación.",
  autorizacion_cliente: "El cliente validó los entregables; se solicita su autorización de cierre.",
  garantia: "Inicia el periodo de garantía de 60 días.",
  terminado: "Concluye la garantía sin incidencias; se cierra el proyecto.",
  cancelado: "El cliente canceló el proyecto por recorte presupuestal.",
  no_autorizado: "El cliente no autorizó la propuesta.",
};

/** 30 projects over every state of src/core/states.ts. */
const PROJECT_PLAN: ProjectState[] = [
  ...Array<ProjectState>(4).fill("requerimiento"),
  ...Array<ProjectState>(4).fill("propuesta"),
  ...Array<ProjectState>(6).fill("en_ejecucion"),
  ...Array<ProjectState>(3).fill("validacion_cliente"),
  ...Array<ProjectState>(3).fill("autorizacion_cliente"),
  ...Array<ProjectState>(3).fill("garantia"),
  ...Array<ProjectState>(3).fill("terminado"),
  ...Array<ProjectState>(2).fill("cancelado"),
  ...Array<ProjectState>(2).fill("no_autorizado"),
];

/** Invoice plans (percentage, state) by project state; each sums to at most 100. */
const INVOICE_PLANS: Partial<Record<ProjectState, [number, InvoiceState][][]>> = {
  en_ejecucion: [
    [
      [40, "resuelto"],
      [30, "pendiente"],
    ],
    [[50, "enviada"]],
    [],
  ],
  validacion_cliente: [
    [
      [40, "resuelto"],
      [40, "enviada"],
    ],
  ],
  autorizacion_cliente: [
    [
      [50, "resuelto"],
      [30, "resuelto"],
      [20, "pendiente"],
    ],
  ],
  garantia: [
    [
      [50, "resuelto"],
      [50, "enviada"],
    ],
    [
      [30, "resuelto"],
      [40, "resuelto"],
      [30, "pendiente"],
    ],
  ],
  terminado: [
    [
      [30, "resuelto"],
      [40, "resuelto"],
      [30, "resuelto"],
    ],
    [
      [50, "resuelto"],
      [50, "resuelto"],
    ],
  ],
  cancelado: [[[30, "cancelada"]], []],
};

const QUOTATION_PLAN: QuotationState[] = [
  "demo",
  "demo",
  "demo",
  "contract",
  "contract",
  "quote",
  "quote",
  "finalizada",
  "finalizada",
  "rechazada",
  "rechazada",
  "cancelada",
];
const QUOTATION_COMMENT: Record<QuotationState, string> = {
  demo: "Se agenda demostración del producto.",
  contract: "Demostración aprobada; se solicita contrato.",
  quote: "Contrato revisado; se envía cotización.",
  finalizada: "Cotización aprobada; se da de alta al cliente.",
  rechazada: "El prospecto eligió otra solución.",
  cancelada: "El prospecto pospuso la compra al siguiente ejercicio.",
};

/**
 * The demo's folders on the installation's drive: each record's folder as the screens would make it (a
 * client's with its four, a prospect's CV_, a project's in its client's Proyectos with its nine). Without a
 * drive (or with one of somebody else's, Google's) records get no folder rather than a link to nowhere.
 */
function demoDrive(port: DocumentsPort | undefined) {
  const folder = async (parentId: string, name: string, inside: readonly string[] = []) => {
    if (!port) return null;
    const { folders } = await ensureStructure(port, parentId, [safeFolderName(name)]);
    const made = Object.values(folders)[0];
    const children = inside.length ? (await ensureStructure(port, made.id, inside)).folders : {};
    return { made, children };
  };
  const link = (item: DriveItem | undefined | null) => ({ drive_root_id: item?.id ?? null, drive_root_url: item?.url ?? null });
  return { folder, link, rootId: port?.rootId ?? "" };
}

export async function buildDemo(tx: Tx, options: { digest: string; now: Date; documents?: DocumentsPort }): Promise<DemoFigures> {
  const rng = createRandom(SEED);
  const drive = demoDrive(options.documents);
  const { date: today, minutes: nowMinutes } = wallClock(options.now);
  const year = Number(today.slice(0, 4));

  // Workspaces (fixed ids: the default one is id 10, SPEC §9) and positions.
  await tx.insert(workspaces).values(WORKSPACES.map((w) => ({ ...w })));
  await resetSequence(tx, "workspaces");
  const workspaceId = Object.fromEntries(WORKSPACES.map((w) => [w.name, w.id])) as Record<string, number>;
  const positionRows = await tx
    .insert(employee_positions)
    .values(POSITIONS.map((name) => ({ name })))
    .returning({ id: employee_positions.id, name: employee_positions.name });
  const positionId = Object.fromEntries(positionRows.map((p) => [p.name, p.id])) as Record<string, number>;

  // Users: the three demo accounts with the password, everyone else without one.
  const userRows = await tx
    .insert(users)
    .values(
      EMPLOYEES.map((e) => ({
        name: e.name,
        email: e.account?.email ?? emailFor(e.name),
        password_digest: e.account ? options.digest : null,
        administrator_role: e.account?.role === "administrator_role",
        operator_role: e.account?.role === "operator_role",
        finance_role: e.account?.role === "finance_role",
        can_chat: !e.inactive,
      })),
    )
    .returning({ id: users.id, email: users.email });
  const userIdByCode = Object.fromEntries(EMPLOYEES.map((e, i) => [e.code, userRows[i].id])) as Record<string, number>;
  const adminUserId = userIdByCode.E001;

  const employeeRows = await tx
    .insert(employees)
    .values(
      EMPLOYEES.map((e, i) => ({
        name: e.name,
        employee_code: e.code,
        user_id: userIdByCode[e.code],
        is_rape: e.is_rape ?? false,
        is_admin_group: e.is_admin_group ?? false,
        is_active: !e.inactive,
        workspace_id: workspaceId[e.workspace],
        employee_position_id: positionId[e.position],
        assignable: e.assignable ?? false,
        // Hired between two and five years ago, before any week the demo tracks.
        start_on: addDays(today, -(730 + ((i * 97) % 1100))),
      })),
    )
    .returning({ id: employees.id, code: employees.employee_code });
  const employeeId = Object.fromEntries(employeeRows.map((e) => [e.code, e.id])) as Record<string, number>;
  await tx.insert(bosses_workspaces).values(
    EMPLOYEES.filter((e) => e.boss).map((e) => ({
      workspace_id: workspaceId[e.workspace],
      employee_id: employeeId[e.code],
    })),
  );

  // Catalog: products and client groups.
  const productRows = await tx
    .insert(products)
    .values(
      PRODUCTS.map((p) => ({
        product_code: p.code,
        name: p.name,
        product_category: p.category,
        is_selectable: p.selectable ?? true,
        employee_id: p.owner ? employeeId[p.owner] : null,
      })),
    )
    .returning({
      id: products.id,
      code: products.product_code,
      name: products.name,
      selectable: products.is_selectable,
    });
  const product = Object.fromEntries(productRows.map((p) => [p.code, p])) as Record<string, (typeof productRows)[number]>;
  const productById = new Map(productRows.map((p) => [p.id, p]));
  const groupRows = await tx
    .insert(client_groups)
    .values(CLIENT_GROUPS.map((name) => ({ name })))
    .returning({ id: client_groups.id, name: client_groups.name });
  const groupId = Object.fromEntries(groupRows.map((g) => [g.name, g.id])) as Record<string, number>;

  // Clients: the firm itself (default customer), 25 customers 1001…1025, "Público en General".
  const clientFolders = new Map<string, Awaited<ReturnType<typeof drive.folder>>>();
  for (const [code, name] of [
    [FIRM.client_code, FIRM.name],
    ...CLIENTS.map((c, i) => [String(1001 + i), c.name]),
    [SUPPORT_EXCLUDED.client_code, SUPPORT_EXCLUDED.name],
  ])
    clientFolders.set(code, await drive.folder(drive.rootId, name, CLIENT_FOLDERS));
  const clientDrive = (code: string) => drive.link(clientFolders.get(code)?.made);
  const clientValues = [
    {
      name: FIRM.name,
      complete_name: FIRM.complete_name,
      client_code: FIRM.client_code,
      email: FIRM.email,
      rfc: rfcFor(FIRM.complete_name, rng),
      is_production_ready: true,
      ...clientDrive(FIRM.client_code),
    },
    ...CLIENTS.map((c, i) => {
      const code = String(1001 + i);
      return {
        name: c.name,
        complete_name: c.complete_name,
        client_code: code,
        rfc: rfcFor(c.complete_name, rng),
        email: `${rng.pick(["contacto", "sistemas", "contabilidad", "ti"])}@${c.domain}`,
        client_group_id: groupId[c.group],
        is_production_ready: i % 7 !== 3,
        was_prospect: CONVERTED_CLIENTS.includes(i),
        converted_to_prospect_by: CONVERTED_CLIENTS.includes(i) ? adminUserId : null,
        ...clientDrive(code),
      };
    }),
    {
      name: SUPPORT_EXCLUDED.name,
      complete_name: SUPPORT_EXCLUDED.complete_name,
      client_code: SUPPORT_EXCLUDED.client_code,
      rfc: "XAXX010101000",
      is_production_ready: false,
      ...clientDrive(SUPPORT_EXCLUDED.client_code),
    },
  ];
  const clientRows = await tx.insert(clients).values(clientValues).returning({
    id: clients.id,
    name: clients.name,
    code: clients.client_code,
    rfc: clients.rfc,
    complete_name: clients.complete_name,
  });
  const firmClient = clientRows[0];
  const excludedClient = clientRows[clientRows.length - 1];
  const customers = clientRows.slice(1, -1);

  // Each customer's products and yearly support hours.
  const catalogValues: {
    client_id: number;
    product_catalog_id: number;
    annual_support_hours: number;
  }[] = [
    {
      client_id: firmClient.id,
      product_catalog_id: product.SIA.id,
      annual_support_hours: 0,
    },
    {
      client_id: firmClient.id,
      product_catalog_id: product.FWK.id,
      annual_support_hours: 0,
    },
    {
      client_id: excludedClient.id,
      product_catalog_id: product.CFDI.id,
      annual_support_hours: 0,
    },
  ];
  const clientProducts = new Map<number, number[]>();
  customers.forEach((c, i) => {
    const codes = rng.shuffle(GROUP_PRODUCTS[CLIENTS[i].group]).slice(0, rng.int(2, 3));
    // Every customer needs one selectable product for support activities.
    if (codes.every((code) => !product[code].selectable))
      codes.push(GROUP_PRODUCTS[CLIENTS[i].group].find((code) => product[code].selectable)!);
    clientProducts.set(
      c.id,
      codes.map((code) => product[code].id),
    );
    for (const code of codes) {
      catalogValues.push({
        client_id: c.id,
        product_catalog_id: product[code].id,
        annual_support_hours: rng.pick([40, 60, 80, 120, 160, 200]),
      });
    }
  });
  await tx.insert(client_product_catalogs).values(catalogValues);

  await tx.update(app_settings).set({
    default_customer_id: firmClient.id,
    default_workspace_id: workspaceId[DEFAULT_WORKSPACE],
    support_excluded_customer_id: excludedClient.id,
  });

  const prospectValues = [];
  for (const name of PROSPECTS)
    prospectValues.push({ name, ...drive.link((await drive.folder(drive.rootId, `${PROSPECT_FOLDER_PREFIX}${name}`))?.made) });
  const prospectRows = await tx.insert(prospects).values(prospectValues).returning({ id: prospects.id, name: prospects.name });

  // The two converted customers were prospects once: each stays as the prospect its client was won from.
  const wonRows = await tx
    .insert(prospects)
    .values(CONVERTED_CLIENTS.map((i) => ({ name: customers[i].name })))
    .returning({ id: prospects.id, name: prospects.name });
  const wonProspect = new Map<number, { id: number; name: string }>();
  for (const [k, i] of CONVERTED_CLIENTS.entries()) {
    await tx.update(clients).set({ prospect_id: wonRows[k].id }).where(eq(clients.id, customers[i].id));
    wonProspect.set(customers[i].id, wonRows[k]);
  }

  await tx.insert(project_types).values(PROJECT_TYPES);
  await resetSequence(tx, "project_types");

  // Projects.
  const pms = ["E001", "E002", "E008", "E012"].map((c) => employeeId[c]);
  const rapes = EMPLOYEES.filter((e) => e.is_rape && !e.inactive).map((e) => employeeId[e.code]);
  const shuffledCustomers = rng.shuffle(customers.filter((_, i) => !CONVERTED_CLIENTS.includes(i)));
  const convertedCustomers = CONVERTED_CLIENTS.map((i) => customers[i]);
  interface PlannedProject {
    clientCode: string;
    values: typeof projects.$inferInsert;
    stages: { state: ProjectState; date: string }[];
  }
  const planned: PlannedProject[] = [];
  let reworkDone = false;
  PROJECT_PLAN.forEach((state, i) => {
    // Two projects come from approved quotations: type 6 on the converted clients.
    const converted = i === 8 ? convertedCustomers[0] : i === 0 ? convertedCustomers[1] : undefined;
    const client = converted ?? shuffledCustomers[i % shuffledCustomers.length];
    const owned = clientProducts.get(client.id)!;
    // Activities cannot use SIA, Framework or SICAJAS (SPEC §5), so projects are on selectable products.
    const productId = rng.pick(owned.filter((id) => productById.get(id)!.selectable));
    const typeId = converted ? 6 : rng.pick([1, 1, 2, 3, 4, 5, 6, 7]);
    const productName = productById.get(productId)!.name;
    const name = `${rng.pick(PROJECT_NAMES[typeId]).replace("{product}", productName)} — ${client.name}`;
    const rework = !reworkDone && (state === "garantia" || state === "terminado");
    if (rework) reworkDone = true;
    const path = pathTo(state, rework);
    // Walk back from the last transition: garantía lasts 60 days before terminado.
    const dates: string[] = [];
    let cursor = addDays(
      today,
      -(state === "terminado" ? rng.int(5, 90) : state === "garantia" ? rng.int(3, 50) : rng.int(2, 35)),
    );
    for (let s = path.length - 1; s >= 0; s--) {
      dates.unshift(cursor);
      cursor = addDays(cursor, -(path[s] === "terminado" ? 60 : rng.int(7, 30)));
    }
    const archived = state === "terminado" || state === "cancelado" || state === "no_autorizado";
    const eta = archived ? addDays(dates[dates.length - 1], -rng.int(0, 20)) : addDays(today, rng.int(20, 150));
    const pm = pms[i % pms.length];
    const last = dates[dates.length - 1];
    planned.push({
      clientCode: client.code,
      values: {
        project_code: `PRY-${String(101 + i).padStart(4, "0")}`,
        name,
        project_date: dates[0],
        eta,
        audit_comment: STAGE_COMMENT[state],
        client_id: client.id,
        project_type_catalog_id: typeId,
        product_catalog_id: productId,
        pm_id: pm,
        rape_id: rng.pick(rapes),
        state,
        state_changed_at: zonedTime(last, 12 * 60),
        estimate_hours_needed: state === "requerimiento" || state === "propuesta",
        color_tag: rng.pick(COLOR_TAGS),
        created_at: zonedTime(dates[0], 10 * 60),
      },
      stages: path.map((s, k) => ({ state: s, date: dates[k] })),
    });
  });

  // Invoices decide the project's invoice_action, so plan them before inserting projects.
  const plannedInvoices: {
    project: number;
    percentage: number;
    state: InvoiceState;
    date: string;
  }[] = [];
  planned.forEach((p, index) => {
    const plans = INVOICE_PLANS[p.values.state as ProjectState];
    if (!plans) return;
    const plan = plans[index % plans.length];
    plan.forEach(([percentage, state], k) => {
      plannedInvoices.push({
        project: index,
        percentage,
        state,
        date: addDays(p.stages[Math.min(k + 2, p.stages.length - 1)].date, rng.int(1, 5)),
      });
    });
    if (plan.length > 0) {
      const all = plan.reduce((sum, [pct, st]) => sum + (st === "resuelto" ? pct : 0), 0);
      p.values.invoice_action =
        all >= 100 ? "completely_invoiced" : plan.some(([, st]) => st === "resuelto") ? "partially_invoiced" : null;
    }
  });

  for (const p of planned) {
    const parent = clientFolders.get(p.clientCode)?.children.Proyectos;
    if (parent)
      Object.assign(
        p.values,
        drive.link((await drive.folder(parent.id, `${p.values.project_code} ${p.values.name}`, PROJECT_FOLDERS))?.made),
      );
  }
  const projectRows = await tx
    .insert(projects)
    .values(planned.map((p) => p.values))
    .returning({
      id: projects.id,
      state: projects.state,
      client_id: projects.client_id,
      product_id: projects.product_catalog_id,
      pm_id: projects.pm_id,
      rape_id: projects.rape_id,
      type: projects.project_type_catalog_id,
    });

  const stageValues: (typeof project_stages.$inferInsert)[] = [];
  planned.forEach((p, index) => {
    p.stages.forEach((stage, k) => {
      const from = k === 0 ? null : p.stages[k - 1].state;
      const back = from !== null && stage.state === "en_ejecucion" && from !== "propuesta";
      stageValues.push({
        project_id: projectRows[index].id,
        event: back ? "regresar_a_ejecucion" : STAGE_EVENT[stage.state],
        from_state: from,
        to_state: stage.state,
        comment: back ? "El cliente solicitó ajustes; se regresa a ejecución." : STAGE_COMMENT[stage.state],
        stage_date: stage.date,
        responsible_id: k % 2 === 0 ? p.values.pm_id : p.values.rape_id,
        eta: p.values.eta,
        user_id: k % 3 === 2 ? userIdByCode.E002 : adminUserId,
        created_at: zonedTime(stage.date, 12 * 60 + k),
      });
    });
  });
  await tx.insert(project_stages).values(stageValues);

  let folio = 4120;
  await tx.insert(invoices).values(
    plannedInvoices.map((inv) => ({
      project_id: projectRows[inv.project].id,
      percentage_value: inv.percentage,
      state: inv.state,
      folio: inv.state === "resuelto" ? `A-${folio++}` : null,
      // biome-ignore lint/complexity/useMathMinMax: ISO dates (strings) compare as text; Math.min would make numbers.
      date_of_invoice: inv.state === "pendiente" ? null : inv.date > today ? today : inv.date,
      audit_comment: `Factura del ${inv.percentage}% del proyecto.`,
    })),
  );

  // Estimated hours on the projects that have been planned.
  const estimateValues: (typeof estimated_work_hours.$inferInsert)[] = [];
  projectRows.forEach((p, i) => {
    if (p.state === "requerimiento" || i % 2 === 1) return;
    for (const position of ["Líder Técnico", "Desarrollador Senior", "Analista de Calidad", "Consultor Funcional"]) {
      if (rng.chance(0.7))
        estimateValues.push({
          project_id: p.id,
          employee_position_id: positionId[position],
          estimated_hours: rng.pick([16, 24, 40, 60, 80, 120, 160]),
        });
    }
  });
  if (estimateValues.length) await tx.insert(estimated_work_hours).values(estimateValues);

  // Quotations in every state; the two finalizadas made the converted clients and their type-6 projects.
  const selectableIds = productRows.filter((p) => p.selectable).map((p) => p.id);
  const convertedProjects = convertedCustomers.map((c) => projectRows.find((p) => p.client_id === c.id && p.type === 6)!);
  let finalized = 0;
  const quotationRows = await tx
    .insert(quotations)
    .values(
      QUOTATION_PLAN.map((state, i) => {
        const done = state === "finalizada" ? convertedProjects[finalized++] : undefined;
        // An approved quotation made its client out of its prospect: the prospect it names is that one.
        const prospect = done ? wonProspect.get(done.client_id)! : prospectRows[i % prospectRows.length];
        const start = zonedTime(
          addDays(today, state === "demo" ? rng.int(1, 10) : -rng.int(10, 60)),
          rng.pick([10, 11, 12, 16]) * 60,
        );
        const end = new Date(start.getTime() + 60 * 60_000);
        const withEvent = state === "demo" || state === "contract";
        return {
          contact_name: CONTACTS[i % CONTACTS.length],
          prospect_id: prospect.id,
          product_catalog_id: done?.product_id ?? rng.pick(selectableIds),
          state,
          audit_comment: QUOTATION_COMMENT[state],
          client_id: done?.client_id ?? null,
          project_id: done?.id ?? null,
          event_id: withEvent ? `demo-evento-${i + 1}@sia` : null,
          event: withEvent
            ? {
                summary: `Demostración — ${prospect.name}`,
                start: { dateTime: start.toISOString() },
                end: { dateTime: end.toISOString() },
              }
            : null,
        };
      }),
    )
    .returning({ id: quotations.id, event_id: quotations.event_id });
  // Their invitations are SIA's own (the .ics every calendar opens), never a link into someone's calendar.
  for (const q of quotationRows)
    if (q.event_id)
      await tx
        .update(quotations)
        .set({ event_url: quotationInvitationPath(q.id) })
        .where(eq(quotations.id, q.id));

  // Licences: Siglo CD (with the mesa electrónica key on some), SICAJAS, CFDI and Nómina.
  const licenseable = catalogValues.filter(
    (c) =>
      c.client_id !== firmClient.id &&
      c.client_id !== excludedClient.id &&
      [product.SCD.id, product.SICAJAS.id, product.CFDI.id, product.NOM.id].includes(c.product_catalog_id),
  );
  // A mix per product (4 Siglo CD, 3 SICAJAS, 3 CFDI, 2 Nómina), topped up from the rest if a product is short.
  const shuffledLicenseable = rng.shuffle(licenseable);
  const licenseRows = (
    [
      ["SCD", 4],
      ["SICAJAS", 3],
      ["CFDI", 3],
      ["NOM", 2],
    ] as const
  ).flatMap(([code, count]) => shuffledLicenseable.filter((c) => c.product_catalog_id === product[code].id).slice(0, count));
  for (const c of shuffledLicenseable) if (licenseRows.length < 12 && !licenseRows.includes(c)) licenseRows.push(c);
  const clientById = new Map(clientRows.map((c) => [c.id, c]));
  await tx.insert(app_licenses).values(
    licenseRows.map((c, i) => {
      const type = LICENSE_TYPES[i % LICENSE_TYPES.length];
      const isSigloCd = productById.get(c.product_catalog_id)!.name === MESA_ELECTRONICA_PRODUCT_NAME;
      const active = i % 6 !== 5;
      const client = clientById.get(c.client_id)!;
      return {
        client_id: c.client_id,
        entity_name: client.complete_name ?? client.name,
        entity_rfc: client.rfc!,
        environment: i % 4 === 3 ? "test" : "prod",
        num_licenses: type === "rent" ? 1 : type === "concurrent_users" ? rng.int(3, 15) : rng.int(5, 40),
        license_type: type,
        license_valid_until: active ? `${year + (i % 2)}-12-31` : `${year - 1}-12-31`,
        has_mesa_electronica_license_key: isSigloCd && i % 4 !== 1,
        product_catalog_id: c.product_catalog_id,
        modules: c.product_catalog_id === product.CFDI.id || isSigloCd ? LICENSE_MODULES.slice(0, rng.int(1, 3)) : [],
        is_active: active,
      };
    }),
  );

  // Assignments of the assignable employees: one finished, one current.
  const supportable = catalogValues.filter(
    (c) =>
      c.client_id !== firmClient.id && c.client_id !== excludedClient.id && productById.get(c.product_catalog_id)!.selectable,
  );
  const assignmentValues: (typeof assignments.$inferInsert)[] = [];
  const assignedTo = new Map<number, { client_id: number; product_catalog_id: number }[]>();
  for (const e of EMPLOYEES.filter((x) => x.assignable && !x.inactive)) {
    const id = employeeId[e.code];
    const [past, current, extra] = rng.shuffle(supportable);
    const pastStart = addDays(today, -rng.int(100, 160));
    const currentStart = addDays(today, -rng.int(5, 40));
    assignmentValues.push(
      {
        employee_id: id,
        client_id: past.client_id,
        product_catalog_id: past.product_catalog_id,
        start_on: pastStart,
        end_on: addDays(pastStart, rng.int(20, 50)),
      },
      {
        employee_id: id,
        client_id: current.client_id,
        product_catalog_id: current.product_catalog_id,
        start_on: currentStart,
        end_on: addDays(today, rng.int(10, 80)),
      },
    );
    assignedTo.set(id, [current, extra]);
  }
  await tx.insert(assignments).values(assignmentValues);

  // Official holidays of this year and the next.
  const holidayValues = [...mexicanHolidays(year), ...mexicanHolidays(year + 1)];
  await tx.insert(holydays).values(holidayValues).onConflictDoNothing();

  // Eight weeks of activities, closed weeks and frozen months.
  const activeStates = new Set(["propuesta", "en_ejecucion", "validacion_cliente", "autorizacion_cliente", "garantia"]);
  const context: ActivityContext = {
    rng,
    today,
    nowMinutes,
    holidays: new Set(holidayValues.map((h) => h.date)),
    adminUserId,
    defaultCustomerId: firmClient.id,
    employees: EMPLOYEES.filter((e) => !e.inactive).map((e) => ({
      id: employeeId[e.code],
      userId: userIdByCode[e.code],
      profile: e.profile,
      assigned: assignedTo.get(employeeId[e.code]) ?? [],
      shortLastWeek: e.shortLastWeek,
    })),
    projects: projectRows
      .filter((p) => activeStates.has(p.state))
      .map((p) => ({
        id: p.id,
        clientId: p.client_id,
        clientName: clientById.get(p.client_id)!.name,
        productId: p.product_id!,
        pmId: p.pm_id!,
        rapeId: p.rape_id!,
        features: rng.shuffle(FEATURES).slice(0, 3),
      })),
    supportable: supportable.map((c) => ({
      clientId: c.client_id,
      productId: c.product_catalog_id,
    })),
    clientName: (id) => clientById.get(id)!.name,
    productName: (id) => productById.get(id)!.name,
    prospects: prospectRows,
    quotableProductIds: selectableIds,
  };
  const { activities: activityCount, frozen } = await buildActivities(tx, context);

  await tx.insert(notifications).values([
    {
      message: "Mantenimiento programado del servidor de Siglo CD este sábado de 8:00 a 12:00.",
      author_name: EMPLOYEES[11].name,
      user_id: userIdByCode.E012,
      workspace_id: workspaceId.Soporte,
      created_at: zonedTime(addDays(today, -3), 9 * 60),
    },
    {
      message: "Recuerden cerrar su semana de actividades antes del lunes.",
      author_name: EMPLOYEES[0].name,
      user_id: adminUserId,
      workspace_id: workspaceId.Soporte,
      created_at: zonedTime(addDays(today, -1), 17 * 60),
    },
  ]);

  return {
    workspaces: WORKSPACES.length,
    employee_positions: positionRows.length,
    employees: employeeRows.length,
    users: userRows.length,
    client_groups: groupRows.length,
    clients: clientRows.length,
    products: productRows.length,
    prospects: prospectRows.length + wonRows.length,
    project_types: PROJECT_TYPES.length,
    projects: projectRows.length,
    project_stages: stageValues.length,
    invoices: plannedInvoices.length,
    quotations: quotationRows.length,
    app_licenses: licenseRows.length,
    assignments: assignmentValues.length,
    holydays: holidayValues.length,
    activities: activityCount,
    frozen_periods: frozen,
  };
}
