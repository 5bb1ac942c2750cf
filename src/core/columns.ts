/**
 * Each resource list's columns, declared once: the server's sort whitelist, search columns and CSV
 * headers (server/http/columns.ts) and the screens' sortable headers (src/admin/common/columns.ts) all
 * read this, so a column the screen offers to sort is one the server sorts.
 *
 * A column is a field the list answers. `sortable`: `by_column[column]=<key>` orders by it (the server
 * maps the key to SQL and must map exactly these keys). `searchable`: the list's `search` reads it.
 * `csv`: its header in the resource's CSV export, in the order declared here. `label`: its label in the
 * screens' catalogue, `resources.<resource>.fields.<label>`, when it is not the key. Columns a screen
 * shows without sorting need no declaration (undeclared means not sortable); they are listed where that
 * says something.
 */

export interface ColumnDecl {
  readonly key: string;
  readonly label?: string;
  readonly sortable?: boolean;
  readonly searchable?: boolean;
  readonly csv?: string;
}

export const listColumns = {
  activities: [
    { key: "id", sortable: true },
    { key: "begins_at", sortable: true },
    { key: "ends_at", sortable: true },
    { key: "description", sortable: true, searchable: true },
    { key: "action_type", sortable: true },
    { key: "employee_name", label: "employee_id", sortable: true },
  ],
  activity_type_catalogs: [
    { key: "id", sortable: true },
    { key: "code", sortable: true, searchable: true },
    { key: "name", sortable: true, searchable: true },
  ],
  app_licenses: [
    { key: "id", sortable: true },
    { key: "entity_name", sortable: true, searchable: true },
    { key: "entity_rfc", sortable: true, searchable: true },
    { key: "client_name", sortable: true },
    { key: "product_name", sortable: true },
    { key: "environment", sortable: true },
    { key: "num_licenses", sortable: true },
    { key: "license_type", sortable: true },
    { key: "license_valid_until", sortable: true },
    { key: "is_active", sortable: true },
    { key: "created_at", sortable: true },
  ],
  app_settings: [{ key: "id", sortable: true }],
  assignments: [
    { key: "id", sortable: true },
    { key: "start_on", sortable: true },
    { key: "end_on", sortable: true },
    { key: "employee_name", sortable: true },
    { key: "client_name", sortable: true },
    { key: "product_name", sortable: true },
    { key: "duration_days", sortable: true },
  ],
  client_groups: [
    { key: "id", sortable: true },
    { key: "name", sortable: true, searchable: true },
    { key: "clients_count", sortable: true },
    { key: "created_at", sortable: true },
  ],
  clients: [
    { key: "id", sortable: true, csv: "ID" },
    { key: "client_code", sortable: true, searchable: true, csv: "Código" },
    { key: "name", sortable: true, searchable: true, csv: "Nombre" },
    { key: "complete_name", searchable: true, csv: "Razón social" },
    { key: "rfc", sortable: true, searchable: true, csv: "RFC" },
    { key: "email", sortable: true, csv: "Correo" },
    { key: "client_group_name", label: "client_group_id", sortable: true, csv: "Grupo" },
    { key: "is_production_ready", sortable: true, csv: "Listo para producción" },
    { key: "created_at", sortable: true },
  ],
  employee_positions: [
    { key: "id", sortable: true },
    { key: "name", sortable: true, searchable: true },
    { key: "employees_count", sortable: true },
  ],
  employees: [
    { key: "id", sortable: true },
    { key: "name", sortable: true, searchable: true },
    { key: "employee_code", sortable: true, searchable: true },
    { key: "is_active", sortable: true },
    { key: "assignable", sortable: true },
    { key: "is_rape", sortable: true },
    { key: "user_email", sortable: true },
    { key: "workspace_name", sortable: true },
    { key: "employee_position_name", sortable: true },
    { key: "created_at", sortable: true },
  ],
  estimated_work_hours: [
    { key: "id", sortable: true },
    { key: "estimated_hours", sortable: true },
    { key: "employee_position_name", label: "employee_position", sortable: true },
    { key: "created_at", sortable: true },
  ],
  holydays: [
    { key: "id", sortable: true },
    { key: "date", sortable: true },
    { key: "name", sortable: true, searchable: true },
    { key: "created_at", sortable: true },
  ],
  invoices: [
    { key: "id", sortable: true },
    { key: "folio", sortable: true, searchable: true },
    { key: "date_of_invoice", sortable: true },
    { key: "percentage_value", sortable: true },
    { key: "state", sortable: true },
    { key: "audit_comment", sortable: true },
    { key: "created_at", sortable: true },
    { key: "project_name", sortable: true },
  ],
  products: [
    { key: "id", sortable: true },
    { key: "name", sortable: true, searchable: true },
    { key: "product_code", sortable: true, searchable: true },
    { key: "product_category", sortable: true },
    { key: "application_id", sortable: true },
    { key: "employee_name", sortable: true },
    { key: "is_selectable", sortable: true },
    { key: "created_at", sortable: true },
  ],
  project_types: [
    { key: "id", sortable: true },
    { key: "name", sortable: true, searchable: true },
    { key: "created_at", sortable: true },
  ],
  projects: [
    { key: "id", sortable: true, csv: "ID" },
    { key: "project_code", sortable: true, searchable: true, csv: "Código" },
    { key: "name", sortable: true, searchable: true, csv: "Nombre" },
    { key: "client_name", sortable: true, csv: "Cliente" },
    { key: "project_type_name", sortable: true, csv: "Tipo de proyecto" },
    { key: "product_name", sortable: true, csv: "Producto" },
    { key: "pm_name", sortable: true, csv: "Líder de proyecto" },
    { key: "rape_name", sortable: true, csv: "Responsable" },
    // Sorted by the state's code; the CSV writes its Spanish name.
    { key: "state", sortable: true },
    { key: "aasm_statuses_with_i18n", csv: "Estado" },
    { key: "project_date", sortable: true, csv: "Fecha del proyecto" },
    { key: "eta", sortable: true, csv: "Fecha estimada de entrega" },
    { key: "invoiced_percentage", csv: "Porcentaje facturado" },
    { key: "invoice_action_label", csv: "Facturación" },
    { key: "state_changed_at", sortable: true },
    { key: "created_at", sortable: true },
    // Counted for the signed-in user: not an order of the list.
    { key: "unread_messages" },
  ],
  prospects: [
    { key: "id", sortable: true },
    { key: "name", sortable: true, searchable: true },
    { key: "created_at", sortable: true },
    { key: "client_name" },
  ],
  quotations: [
    { key: "id", sortable: true },
    { key: "contact_name", sortable: true, searchable: true },
    { key: "state", sortable: true },
    { key: "created_at", sortable: true },
    { key: "updated_at", sortable: true },
    { key: "prospect_name", sortable: true },
    { key: "product_name", sortable: true },
    { key: "client_name" },
  ],
  users: [
    { key: "id", sortable: true },
    { key: "name", sortable: true, searchable: true },
    { key: "email", sortable: true, searchable: true },
    { key: "administrator_role", sortable: true },
    { key: "operator_role", sortable: true },
    { key: "finance_role", sortable: true },
    { key: "created_at", sortable: true },
    { key: "can_chat" },
  ],
  workspaces: [{ key: "id", sortable: true }, { key: "name", sortable: true, searchable: true }, { key: "employees_count" }],
} as const satisfies Record<string, readonly ColumnDecl[]>;

export type ListName = keyof typeof listColumns;
type Declared<R extends ListName> = (typeof listColumns)[R][number];

/** The keys the server must sort by: exactly these. */
export type SortKey<R extends ListName> = Extract<Declared<R>, { sortable: true }>["key"];
/** The keys the list's search reads. */
export type SearchKey<R extends ListName> = Extract<Declared<R>, { searchable: true }>["key"];

export const isListName = (name: string): name is ListName => Object.hasOwn(listColumns, name);

/** A list's declared columns (none for a name that is not a declared list). */
export const columnsOf = (name: string): readonly ColumnDecl[] => (isListName(name) ? listColumns[name] : []);

export const sortKeys = (name: string): string[] => columnsOf(name).flatMap((c) => (c.sortable ? [c.key] : []));
export const searchKeys = (name: string): string[] => columnsOf(name).flatMap((c) => (c.searchable ? [c.key] : []));

/** Whether the list sorts by this key. */
export const isSortable = (name: string, key: string): boolean => columnsOf(name).some((c) => c.key === key && c.sortable);
