/**
 * The resources of SPEC §7 with their JSON wrapper name (Rails style) and, for those with screens, the
 * paths of SPEC §2 under /app. The router, the menu, the dataProvider and the e2e path test read this
 * one table.
 */
export const RESOURCE_SINGULARS = {
  activities: "activity",
  activity_type_catalogs: "activity_type_catalog",
  users: "user",
  clients: "client",
  prospects: "prospect",
  projects: "project",
  invoices: "invoice",
  quotations: "quotation",
  products: "product",
  project_types: "project_type",
  employees: "employee",
  employee_positions: "employee_position",
  estimated_work_hours: "estimated_work_hour",
  holydays: "holyday",
  workspaces: "workspace",
  assignments: "assignment",
  app_licenses: "app_license",
  client_groups: "client_group",
  app_settings: "app_setting",
  notifications: "notification",
} as const;
export type ResourceName = keyof typeof RESOURCE_SINGULARS;
export const singularOf = (resource: string) =>
  (RESOURCE_SINGULARS as Record<string, string>)[resource] ?? resource.replace(/s$/, "");

export type ScreenKind = "list" | "create" | "edit" | "show";

export interface ScreenPaths {
  /** API resource behind the screens. */
  resource: ResourceName;
  /** Path segment under /app (SPEC §2 spelling). */
  base: string;
  /** Sub-paths of each screen, relative to base (":id" is the record id). */
  paths: Partial<Record<ScreenKind, string[]>>;
}

const crud = (create = "new", show = ["show/:id"], extraShow: string[] = []): ScreenPaths["paths"] => ({
  list: ["list"],
  create: [create],
  edit: ["update/:id"],
  show: [...show, ...extraShow],
});

export const SCREENS: ScreenPaths[] = [
  { resource: "assignments", base: "assignments", paths: crud() },
  { resource: "workspaces", base: "workspaces", paths: crud() },
  { resource: "clients", base: "clients", paths: crud() },
  { resource: "projects", base: "projects", paths: crud("new", [":id"]) },
  { resource: "employees", base: "employees", paths: crud("new", [":id"]) },
  { resource: "users", base: "users", paths: crud("new_user", [":id", "show_not_admin/:id"]) },
  { resource: "holydays", base: "holydays", paths: { list: ["list"], create: ["new"] } },
  { resource: "client_groups", base: "client_group", paths: crud() },
  { resource: "products", base: "productCatalogs", paths: crud("new", [":id"]) },
  { resource: "prospects", base: "prospects", paths: crud("new", [":id"]) },
  { resource: "quotations", base: "quotations", paths: crud("new", [":id"]) },
  {
    resource: "employee_positions",
    base: "employee_positions",
    paths: { list: ["list"], create: ["new"], edit: ["update/:id"] },
  },
  // SPEC §2 gives licences no update path; administrators edit them at update/:id.
  {
    resource: "app_licenses",
    base: "app_licenses",
    paths: { list: ["list"], create: ["new"], edit: ["update/:id"], show: ["show/:id"] },
  },
  // Catalogues not in SPEC §2 (administrators manage them).
  { resource: "project_types", base: "project_types", paths: { list: ["list"], create: ["new"], edit: ["update/:id"] } },
  {
    resource: "activity_type_catalogs",
    base: "activity_type_catalogs",
    paths: { list: ["list"], create: ["new"], edit: ["update/:id"] },
  },
  // A single settings row: /app/app_settings is its form (also at update/1).
  { resource: "app_settings", base: "app_settings", paths: { edit: ["update/:id"] } },
];

/** A screen by its API resource or by its react-admin name (the spec's path segment). */
export const screenOf = (name: string) => SCREENS.find((s) => s.resource === name || s.base === name);
/** The API resource behind a react-admin resource name (`productCatalogs` → `products`). */
export const apiResourceOf = (name: string): string => screenOf(name)?.resource ?? name;

/** The canonical /app path of a resource's screen (the first spelling SPEC §2 gives). */
export function screenPath(resource: string, kind: ScreenKind, id?: string | number): string {
  const screen = screenOf(resource);
  const base = `/app/${screen?.base ?? resource}`;
  const sub = screen?.paths[kind]?.[0];
  if (kind === "list") return base;
  if (!sub) return base;
  return `${base}/${sub.replace(":id", encodeURIComponent(String(id ?? "")))}`;
}

/** The timesheet's address parameter naming the week shown (?semana=YYYY-MM-DD, any day of it); e-mails link with it. */
export const TIMESHEET_WEEK_PARAM = "semana";

/** /app/showGoogleCalendar sends here: the activities page with this parameter opens the calendar import. */
export const CALENDAR_IMPORT_PARAM = "importar";

/** Paths that are pages rather than resources (SPEC §2). */
export const PAGE_PATHS = {
  activities: "/app/activities",
  showGoogleCalendar: "/app/showGoogleCalendar",
  changelog: "/app/changeLogSia",
  reporting: "/app/reporting/list",
  /** Administrators: the local outbox and the scheduled jobs. */
  outbox: "/app/outbox",
  /** Administrators: which adapter each port runs, with a connection test. */
  integrations: "/app/integrations",
  /** Administrators: each person's assigned and logged hours against their capacity, week by week. */
  capacity: "/app/capacity",
  /** Workspace bosses and administrators: the weeks sent to review (docs/decisions/050-week-approval.md). */
  week_reviews: "/app/week_reviews",
  /** The dashboards (not in SPEC §2). */
  dashboard: "/app/dashboard",
  /** Administrators send notices (not in SPEC §2). */
  notices: "/app/notices",
  signIn: "/sign_in",
  notFound: "/404",
} as const;

/** Invoices live under their project: /app/projects/:projectId/invoices/… */
export const INVOICE_PATHS = ["", "new_invoice", "update/:invoiceId", ":invoiceId"] as const;

/** A quotation's invitation, served by SIA itself (GET quotations/:id/invitation.ics): what its event links to. */
export const quotationInvitationPath = (id: number) => `/api/v1/quotations/${id}/invitation.ics`;
