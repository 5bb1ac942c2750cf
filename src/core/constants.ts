/** Business constants of SPEC §9, in one place for the server and the browser. */

export const APP_VERSION = "1.53.0";

export const PAGE_SIZE = 10;
export const PAGER_WINDOW = 10;
export const MAX_PER_PAGE = 1000;
export const ACTIVITIES_CSV_TIMEOUT_MS = 300_000;
export const DRIVE_MAX_RETRIES = 5;
export const DRIVE_PAGE_SIZE = 200;
export const COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;
export const QUOTATION_EVENT_DEFAULT_MINUTES = 60;
export const QUOTATION_PROJECT_TYPE_ID = 6;
export const CLIENT_NOT_CONFIGURED_THROTTLE_MS = 2500;
export const INVOICE_PERCENTAGE_DEFAULT = 1;
export const DEFAULT_EMPLOYEE_CODE = "0";
export const NEW_CLIENT_CODE = "0";
/** A working day's hours unless the employee's record says otherwise (part-time staff: employees.daily_hours). */
export const WORKING_DAY_HOURS = 8;
export const WORKING_WEEK_HOURS = WORKING_DAY_HOURS * 5;

export const PROJECT_FOLDERS = [
  "01 Requerimientos",
  "02 Pre Análisis",
  "03 Propuesta",
  "04 Autorización del Cliente y OC",
  "05 Plan de Trabajo",
  "06 Análisis",
  "07 Desarrollo y Pruebas",
  "08 Validación del Cliente",
  "09 Cierre",
] as const;
/** SIA's own folder at the drive's root: the documents templates (the PLD contract); never a record's. */
export const TEMPLATES_FOLDER = "Plantillas";
/**
 * A client's or prospect's «Administración» folder (contracts such as the PLD): read only by the roles of
 * the permission matrix's `drive_administration` row (docs/decisions/034-drive-folders-by-role.md).
 */
export const ADMINISTRATION_FOLDER = "Administración";
export const CLIENT_FOLDERS = [ADMINISTRATION_FOLDER, "Comercial", "Proyectos", "Soporte Técnico"] as const;
export const PROSPECT_FOLDER_PREFIX = "CV_";

export const LICENSE_ENVIRONMENTS = ["prod", "test"] as const;
export const LICENSE_TYPES = ["rent", "concurrent_users", "named_users"] as const;
export const LICENSE_MODULES = ["Emission", "Reception", "Conciliation"] as const;
export const LICENSE_DEFAULTS = { environment: "prod", num_licenses: 1, license_type: "rent" } as const;
/** The product whose licences carry the "mesa electrónica" key (SPEC §5). */
export const MESA_ELECTRONICA_PRODUCT_NAME = "Siglo CD";

export const ACTION_TYPES = ["project", "support", "quote", "internal", "rh", "vacation"] as const;
export type ActionType = (typeof ACTION_TYPES)[number];
/** The Spanish name of each action type: the calendar's legend and form, the dashboards and the CSV reports. */
export const ACTION_LABELS: Record<ActionType, string> = {
  project: "Proyecto",
  support: "Soporte",
  quote: "Preventa",
  internal: "Actividad interna",
  rh: "Recursos humanos",
  vacation: "Vacaciones",
};
export const VACATION_DESCRIPTION = "Vacaciones / Incapacidades";

/** Activity type catalog of SPEC §9: id → summary code. */
export const ACTIVITY_TYPES = [
  { id: 1, code: "PY", name: "Planeación" },
  { id: 2, code: "AN", name: "Análisis" },
  { id: 3, code: "DE", name: "Desarrollo" },
  { id: 4, code: "PR", name: "Pruebas" },
  { id: 5, code: "CE", name: "Capacitación externa" },
  { id: 6, code: "CI", name: "Capacitación interna" },
  { id: 7, code: "IM", name: "Implementación" },
  { id: 8, code: "ST", name: "Soporte técnico" },
  { id: 9, code: "DC", name: "Documentación" },
  { id: 10, code: "AV", name: "Actividades de venta" },
  { id: 11, code: "OT", name: "Otros" },
  { id: 12, code: "EO", name: "Entrega de objetos" },
] as const;

/** Products that cannot be chosen for activities (SPEC §5). */
export const NON_SELECTABLE_PRODUCTS = ["SIA", "Framework", "SICAJAS"] as const;

export const CALENDAR = {
  slotMinutes: 15,
  height: 750,
  defaultAllDayStart: "09:00",
  defaultAllDayEnd: "18:00",
} as const;

export const ROLES = ["administrator_role", "operator_role", "finance_role"] as const;
export type RoleFlag = (typeof ROLES)[number];
export const ROLE_LABELS: Record<RoleFlag, string> = {
  administrator_role: "Administrador",
  operator_role: "Operador",
  finance_role: "Finanzas",
};

// --- weekly jobs ---
/** Day of the week (0 = Sunday … 6 = Saturday) on which the weekly reminder and report go out. */
export const WEEKLY_JOBS_WEEKDAY = 2;
/** The scheduled jobs (server/jobs): their names in the API and in job_runs. */
export const JOB_NAMES = [
  "weekly_reminder",
  "weekly_report",
  "warranty_auto_close",
  "mention_email",
  "nightly_backup",
  "budget_alerts",
  "week_auto_approve",
] as const;
export type JobName = (typeof JOB_NAMES)[number];
