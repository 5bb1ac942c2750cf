/**
 * The permission matrix: resource × action × role → "all" (any record), "own" (the user's own records
 * only) or nothing. The server enforces it on every route; the menu and buttons read it to hide what the
 * server would refuse. Decided in docs/decisions/002-permission-matrix.md.
 */
import type { RoleFlag } from "./constants";

export type Role = "admin" | "operator" | "finance";
export type Grant = "all" | "own";
export type Action =
  | "list"
  | "show"
  | "create"
  | "update"
  | "delete"
  | "export"
  | "import"
  | "transition"
  | "freeze"
  | "freeze_others"
  | "invoice"
  | "notify";

type RoleGrants = Partial<Record<Role, Grant>>;
type ResourceRules = Partial<Record<Action, RoleGrants>>;

const everyone: RoleGrants = { admin: "all", operator: "all", finance: "all" };
const everyoneOwn: RoleGrants = { admin: "all", operator: "own", finance: "own" };
const admin: RoleGrants = { admin: "all" };
const adminFinance: RoleGrants = { admin: "all", finance: "all" };

/** Catalogue everyone reads and only administrators change. */
const catalogue = (): ResourceRules => ({
  list: everyone,
  show: everyone,
  create: admin,
  update: admin,
  delete: admin,
  export: admin,
});
/** Section only administrators see. */
const adminOnly = (): ResourceRules => ({
  list: admin,
  show: admin,
  create: admin,
  update: admin,
  delete: admin,
  export: admin,
  import: admin,
});
/** Administrators work it, Finanzas reads it. */
const financeReads = (): ResourceRules => ({ ...adminOnly(), list: adminFinance, show: adminFinance, export: adminFinance });

export const permissionMatrix = {
  activities: {
    list: everyoneOwn,
    show: everyoneOwn,
    create: everyoneOwn,
    update: everyoneOwn,
    delete: everyoneOwn,
    export: everyoneOwn,
    import: everyoneOwn,
    freeze: everyoneOwn,
    freeze_others: admin,
  },
  reports: { export: { admin: "all", finance: "all", operator: "own" } },
  activity_type_catalogs: catalogue(),
  users: {
    list: admin,
    show: everyoneOwn,
    create: admin,
    update: everyoneOwn,
    delete: admin,
  },
  clients: catalogue(),
  prospects: { ...catalogue(), transition: admin },
  client_groups: adminOnly(),
  projects: {
    ...catalogue(),
    export: adminFinance,
    transition: admin,
    invoice: adminFinance,
    notify: admin,
  },
  invoices: {
    list: adminFinance,
    show: adminFinance,
    create: adminFinance,
    update: adminFinance,
    delete: admin,
    transition: adminFinance,
    export: adminFinance,
  },
  quotations: { ...financeReads(), transition: admin },
  products: catalogue(),
  project_types: catalogue(),
  employee_positions: catalogue(),
  // Finanzas reads every employee (reports by employee); an Operador only their own record.
  employees: {
    ...adminOnly(),
    list: { admin: "all", finance: "all", operator: "own" },
    show: { admin: "all", finance: "all", operator: "own" },
  },
  // A project's estimated hours: administrators work them, Finanzas reads them all, and an Operador reads
  // those of the projects they lead — their employee is its PM or responsible person (`own`, leadsProject;
  // docs/decisions/029-project-leaders.md). Billing and state changes stay with their rows above.
  estimated_work_hours: {
    ...financeReads(),
    list: { admin: "all", finance: "all", operator: "own" },
    show: { admin: "all", finance: "all", operator: "own" },
  },
  holydays: { ...catalogue(), import: admin },
  workspaces: financeReads(),
  assignments: { ...adminOnly(), list: everyoneOwn, show: everyoneOwn },
  app_licenses: financeReads(),
  app_settings: { list: everyone, show: everyone, update: admin },
  // The bell: each user lists and marks seen their own notifications; administrators send notices.
  notifications: { list: everyone, show: everyone, create: admin, update: { admin: "own", operator: "own", finance: "own" } },
  outbox: { list: admin, show: admin },
  // Scheduled jobs (server/jobs): administrators see their runs and run one by hand (create = run now).
  jobs: { list: admin, create: admin },
  // Whole backups (database and DATA_DIR's files, secret.key among them): whoever holds one reads
  // everything, so only administrators list, download (show) and take (create) them.
  backups: { list: admin, show: admin, create: admin },
  // The drive (documents port): everyone signed in browses and opens files; administrators create folders.
  drive: { list: everyone, show: everyone, create: admin },
  // Inside an «Administración» folder (a client's or prospect's contracts, the PLD among them): listed and
  // opened by administrators and Finanzas only; an Operador does not see the folder at all. Every drive
  // route (list, open, download, create) checks the item and the folders above it
  // (docs/decisions/034-drive-folders-by-role.md).
  drive_administration: { list: adminFinance, show: adminFinance, create: admin },
  // Timesheet imports (calendar .ics / Google): everyone with an employee reads events into their own week.
  calendar_imports: { import: { admin: "own", operator: "own", finance: "own" } },
  // Tableros: `show` is one employee's week (each their own; administrators anyone's), `list` the
  // team's (every employee, weeks not closed). A project's or a client's dashboard is read by whoever may
  // show that project or client (`projects`/`clients` × show): the rule is theirs, not repeated here.
  dashboards: { show: everyoneOwn, list: admin },
  // «Capacidad»: everyone's assigned and logged hours against their capacity, week by week (administrators).
  capacity: { list: admin, export: admin },
  // Weeks sent to review (docs/decisions/050-week-approval.md). `create` is sending one's own week (an
  // administrator may send anyone's). `list` and `transition` (approve, return) are scoped by workspace:
  // `own` is the weeks of the people of the workspaces the user's employee is a boss of (bosses_workspaces),
  // never the user's own week; administrators review everyone's but their own. The server applies the
  // scope in SQL (server/modules/week_reviews/service.ts); reopening an approved week is `freeze_others`.
  week_reviews: {
    create: everyoneOwn,
    list: { admin: "all", operator: "own", finance: "own" },
    transition: { admin: "all", operator: "own", finance: "own" },
  },
  // «Integraciones»: administrators see which adapter each port runs (list) and test one (show).
  integrations: { list: admin, show: admin },
  // What a project list or record tells of its invoicing (percentage invoiced, the invoicing action, the
  // ignore_proyect_invoiced filter): whoever reads invoices. An Operador sees projects, not their billing.
  project_invoicing: { show: adminFinance },
  // Other people's work seen through a list (the projects' involved_projects_by_employee filter: where an
  // employee logged time or is assigned): like reports by employee, an Operador only their own (SPEC §6).
  employee_work: { list: { admin: "all", finance: "all", operator: "own" } },
  // The API's documentation (/api/docs, its JSON and YAML): the route map is for administrators.
  api_docs: { show: admin },
} satisfies Record<string, ResourceRules>;

export type PermissionResource = keyof typeof permissionMatrix;

export interface RoleHolder {
  administrator_role?: boolean | null;
  operator_role?: boolean | null;
  finance_role?: boolean | null;
}

const ROLE_OF_FLAG: Record<RoleFlag, Role> = {
  administrator_role: "admin",
  operator_role: "operator",
  finance_role: "finance",
};

export function rolesOf(user: RoleHolder | null | undefined): Role[] {
  if (!user) return [];
  return (Object.keys(ROLE_OF_FLAG) as RoleFlag[]).filter((flag) => user[flag]).map((flag) => ROLE_OF_FLAG[flag]);
}

/** The widest grant any of the user's roles gives, or null when none does. */
export function grantFor(user: RoleHolder | null | undefined, resource: string, action: Action): Grant | null {
  const rules = (permissionMatrix as Record<string, ResourceRules>)[resource];
  const grants = rules?.[action];
  if (!grants) return null;
  let best: Grant | null = null;
  for (const role of rolesOf(user)) {
    const grant = grants[role];
    if (grant === "all") return "all";
    if (grant === "own") best = "own";
  }
  return best;
}

export function canAccess(params: { user: RoleHolder | null | undefined; resource: string; action: Action }): boolean {
  return grantFor(params.user, params.resource, params.action) !== null;
}

export const isAdmin = (user: RoleHolder | null | undefined) => Boolean(user?.administrator_role);

/**
 * A project leader: the user's employee is the project's PM or its responsible person (SPEC §6). What a
 * leader may see beyond their role is the `own` grant of the rows that say so (decision 029); the server's
 * own-records scopes apply the same rule in SQL.
 */
export function leadsProject(
  user: (RoleHolder & { employee?: { id: number } | null }) | null | undefined,
  project: { pm_id?: number | null; rape_id?: number | null } | null | undefined,
): boolean {
  const employeeId = user?.employee?.id;
  return Boolean(employeeId && project && (project.pm_id === employeeId || project.rape_id === employeeId));
}

/** Whether the user may do an action on what belongs to a project: an `all` grant, or `own` and leading it. */
export function canOnProject(
  user: (RoleHolder & { employee?: { id: number } | null }) | null | undefined,
  resource: PermissionResource,
  action: Action,
  project: { pm_id?: number | null; rape_id?: number | null } | null | undefined,
): boolean {
  const grant = grantFor(user, resource, action);
  return grant === "all" || (grant === "own" && leadsProject(user, project));
}
