import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import englishMessages from "ra-language-english";
import { describe, expect, it } from "vitest";
import {
  environmentChoices,
  licenseModuleChoices,
  licenseTypeChoices,
  statusChoices,
} from "../../src/admin/app_licenses/licenseChoices";
import { es, i18nProvider, raSpanish } from "../../src/admin/i18n";

type Tree = { [key: string]: Tree | string | undefined };

/** Flattens a nested catalogue into dotted paths → strings. */
function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(path, value);
    else if (value && typeof value === "object") for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

const placeholders = (text: string) => (text.match(/%\{[A-Za-z_]+\}/g) ?? []).sort();
const PLURAL_SEPARATOR = " |||| ";

const english = flatten(englishMessages as unknown as Tree);
const spanish = flatten(raSpanish as unknown as Tree);
const englishKeys = [...english.keys()];

/**
 * Keys whose Spanish text may equal the English one, each with its reason. Anything else
 * identical to English is treated as an untranslated string.
 */
const SAME_AS_ENGLISH: Record<string, string> = {
  "ra.boolean.false": "'No' is the same word in Spanish",
  "ra.message.no": "'No' is the same word in Spanish",
  "ra.configurable.inspector.title": "'Inspector' is the same word in Spanish",
};
/** Proper nouns / acronyms allowed to appear verbatim as whole values. */
const PROPER_NOUNS_AND_ACRONYMS = ["CSV", "ID", "RFC", "RAPE", "URL"];
/** Strings made only of placeholders and punctuation (e.g. '%{name} %{recordRepresentation}') have no language. */
const isLanguageNeutral = (text: string) => !/\p{L}/u.test(text.replace(/%\{[A-Za-z_]+\}/g, ""));

describe("raSpanish covers ra-language-english 5", () => {
  it("English catalogue is the react-admin 5 one", () => {
    expect(englishKeys.length).toBeGreaterThan(150);
    expect(english.has("ra.navigation.skip_nav")).toBe(true);
  });

  it.each(englishKeys)("%s has a non-empty Spanish value", (key) => {
    const value = spanish.get(key);
    expect(typeof value, `missing ${key}`).toBe("string");
    // The one intentionally blank message: an em space, exactly as in English.
    if (key === "ra.boolean.null") expect(value).toBe("\u2003");
    else expect((value ?? "").trim().length, `empty ${key}`).toBeGreaterThan(0);
  });

  it.each(englishKeys)("%s keeps the English placeholders and pluralisation", (key) => {
    const en = english.get(key) ?? "";
    const esText = spanish.get(key) ?? "";
    const enForms = en.split(PLURAL_SEPARATOR);
    const esForms = esText.split(PLURAL_SEPARATOR);
    // Same number of polyglot forms (1 when not pluralised, 2 when it is).
    expect(esForms.length, `plural forms of ${key}`).toBe(enForms.length);
    expect(esText.includes("||||")).toBe(en.includes("||||"));
    // Every placeholder of each English form is in the matching Spanish form.
    enForms.forEach((form, index) => {
      for (const placeholder of placeholders(form)) {
        expect(esForms[index], `${key} form ${index}`).toContain(placeholder);
      }
    });
    // And Spanish introduces no placeholder react-admin does not pass.
    expect(new Set(placeholders(esText))).toEqual(new Set(placeholders(en)));
  });

  it("no Spanish value is left in English, except the listed ones", () => {
    const untranslated = englishKeys.filter(
      (key) =>
        spanish.get(key) === english.get(key) &&
        !(key in SAME_AS_ENGLISH) &&
        !isLanguageNeutral(english.get(key) ?? "") &&
        !PROPER_NOUNS_AND_ACRONYMS.includes(english.get(key) ?? ""),
    );
    expect(untranslated).toEqual([]);
    // The exception list stays honest: each listed key really is identical.
    for (const key of Object.keys(SAME_AS_ENGLISH)) expect(spanish.get(key)).toBe(english.get(key));
  });

  it("keeps no obsolete react-admin 2 keys", () => {
    const extra = [...spanish.keys()].filter((key) => !english.has(key));
    expect(extra).toEqual([]);
  });
});

/** SPEC §3 fields per resource that must have a Spanish label. */
const SPEC_FIELDS: Record<string, string[]> = {
  clients: [
    "id",
    "name",
    "client_code",
    "rfc",
    "complete_name",
    "email",
    "is_production_ready",
    "was_prospect",
    "converted_to_prospect_by",
    "client_group_id",
    "drive_root_id",
    "drive_root_url",
    "client_product_catalogs",
    "product_catalog_id",
    "product_catalog_name",
    "annual_support_hours",
  ],
  prospects: ["id", "name", "created_at", "drive_root_id", "drive_root_url"],
  client_groups: ["id", "name", "clients"],
  users: [
    "id",
    "name",
    "email",
    "operator_role",
    "administrator_role",
    "finance_role",
    "can_chat",
    "azure_token",
    "password",
    "password_confirmation",
    "employee",
  ],
  employees: [
    "id",
    "name",
    "employee_code",
    "user_id",
    "is_rape",
    "is_admin_group",
    "is_active",
    "workspace_id",
    "employee_position_id",
    "assignable",
  ],
  employee_positions: ["id", "name"],
  workspaces: ["id", "name", "is_notifiable", "employees", "bosses_workspaces"],
  assignments: [
    "id",
    "employee_id",
    "client_id",
    "product_catalog_id",
    "start_on",
    "end_on",
    "employee_name",
    "product_name",
    "client_name",
    "duration_days",
  ],
  holydays: ["id", "date"],
  products: [
    "id",
    "product_code",
    "name",
    "application_id",
    "employee_id",
    "brochure_url",
    "brochure_id",
    "form_url",
    "form_id",
    "product_category",
  ],
  app_licenses: [
    "client_id",
    "entity_name",
    "entity_rfc",
    "environment",
    "num_licenses",
    "license_valid_until",
    "license_type",
    "has_mesa_electronica_license_key",
    "product_catalog_id",
    "modules",
    "is_active",
  ],
  estimated_work_hours: ["estimated_hours", "project_id", "employee_position"],
  project_types: ["name", "color_tag"],
  activity_type_catalogs: ["name"],
  app_settings: ["default_customer_id", "default_customer_name"],
  projects: [
    "id",
    "project_code",
    "name",
    "project_date",
    "eta",
    "audit_comment",
    "drive_root_id",
    "drive_root_url",
    "client_id",
    "project_type_catalog_id",
    "product_catalog_id",
    "rape_id",
    "pm_id",
    "state",
    "permitted_events",
    "invoice_action",
    "aasm_statuses_with_i18n",
    "estimate_hours_needed",
    "color_tag",
  ],
  invoices: ["id", "folio", "date_of_invoice", "percentage_value", "state", "audit_comment", "project_id"],
  quotations: [
    "contact_name",
    "prospect_id",
    "prospect",
    "product_catalog_id",
    "product_catalog",
    "event_url",
    "event_id",
    "audit_comment",
    "state",
    "permitted_events",
    "client_hash",
    "project_hash",
  ],
  activities: [
    "id",
    "begins_at",
    "ends_at",
    "description",
    "activity_type_catalog_id",
    "action_type",
    "ownerable_id",
    "ownerable_type",
    "project_id",
    "project_code",
    "product_catalog_id",
    "short_title",
    "ticket_id",
    "ticket_name",
    "is_favorite",
    "update_by",
    "is_editable",
    "is_month_frozen",
    "google_calendar_id",
    "google_calendar_event",
    "project",
  ],
  notifications: ["message", "author_name"],
};

const catalogue = flatten(es as unknown as Tree);

describe("resources labels (SPEC §3)", () => {
  // react-admin names two resources after their SPEC §2 path; they share the API resource's labels.
  const ALIASES = { productCatalogs: "products", client_group: "client_groups" } as const;

  it("declares exactly the spec's resources, plus the two path-named aliases", () => {
    expect(Object.keys(es.resources).sort()).toEqual([...Object.keys(SPEC_FIELDS), ...Object.keys(ALIASES)].sort());
    for (const [alias, resource] of Object.entries(ALIASES)) {
      expect(es.resources[alias as keyof typeof es.resources]).toBe(es.resources[resource as keyof typeof es.resources]);
    }
  });

  it.each(Object.keys(SPEC_FIELDS))("%s has a pluralised Spanish name", (resource) => {
    const name = catalogue.get(`resources.${resource}.name`) ?? "";
    expect(name.split(PLURAL_SEPARATOR)).toHaveLength(2);
    expect(name.split(PLURAL_SEPARATOR).every((form) => form.trim().length > 0)).toBe(true);
  });

  it.each(Object.entries(SPEC_FIELDS))("%s labels every spec field", (resource, fields) => {
    const missing = fields.filter((field) => !catalogue.get(`resources.${resource}.fields.${field}`)?.trim());
    expect(missing).toEqual([]);
  });

  it("uses the agreed wording", () => {
    const expected: Record<string, string> = {
      "resources.clients.fields.client_code": "Código",
      "resources.clients.fields.rfc": "RFC",
      "resources.clients.fields.complete_name": "Razón social",
      "resources.clients.fields.client_group_id": "Grupo de clientes",
      "resources.clients.fields.client_product_catalogs": "Productos",
      "resources.clients.fields.annual_support_hours": "Horas de soporte anuales",
      "resources.clients.fields.is_production_ready": "Listo para producción",
      "resources.clients.fields.was_prospect": "Fue prospecto",
      "resources.clients.fields.drive_root_url": "Carpeta en el drive",
      "resources.users.fields.administrator_role": "Administrador",
      "resources.users.fields.operator_role": "Operador",
      "resources.users.fields.finance_role": "Finanzas",
      "resources.users.fields.can_chat": "Puede usar el chat",
      "resources.users.fields.password": "Contraseña",
      "resources.users.fields.password_confirmation": "Confirmar contraseña",
      "resources.employees.fields.is_rape": "Responsable (RAPE)",
      "sia.sign_in.title": "Iniciar sesión",
      "sia.sign_in.email": "Correo electrónico",
      "sia.sign_in.password": "Contraseña",
      "sia.sign_in.submit": "Entrar",
      "sia.no_employee": "Favor de ponerse en contacto con RH para que lo den de alta como empleado",
      "sia.filters.all": "Todos",
      "sia.filters.administrator": "Administrador",
      "sia.filters.operator": "Operador",
      "sia.filters.finance": "Finanzas",
    };
    for (const [key, value] of Object.entries(expected)) expect(catalogue.get(key), key).toBe(value);
  });

  it("has the menu entries", () => {
    expect(Object.values(es.sia.menu)).toEqual([
      "Actividades",
      "Clientes",
      "Prospectos",
      "Grupos de clientes",
      "Cotizaciones",
      "Proyectos",
      "Empleados",
      "Usuarios",
      "Espacios de trabajo",
      "Asignaciones",
      "Días festivos",
      "Catálogo de productos",
      "Licencias",
      "Tipos de proyecto",
      "Tipos de actividad",
      "Configuración",
      "Reportes",
      "Historial de cambios",
      "Puestos",
      "Mi perfil",
      "Correo y tareas",
      "Integraciones",
      "Avisos",
      "Capacidad",
      "Semanas por revisar",
    ]);
  });
});

/** Every source file under a directory, recursively. */
function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The catalogues themselves: the one place Spanish is spelled. */
const CATALOGUES = "src/admin/i18n/";
/**
 * Screens still being moved onto the shared frames, which move their texts with them. Temporary: the
 * list empties when they land, and then goes.
 */

const SCREENS = [...sourcesUnder("src/admin"), ...sourcesUnder("src/timesheet")].filter((file) => !file.startsWith(CATALOGUES));

const UPPER = "A-ZÁÉÍÓÚÑ¿¡";
const LOWER = "a-záéíóúñ";
/** Lines that spell a user-facing text instead of naming a catalogue key (keys start in lower case). */
const SPANISH_IN_CODE: RegExp[] = [
  // a capitalised word in a JSX child: <b>Texto</b> (not an arrow's `=> Promise<T>`)
  new RegExp(`(?<!=)>\\s*[${UPPER}][${LOWER}]+[^<{]*<`),
  // a JSX child alone on its line: a capitalised word, then only words and sentence punctuation
  new RegExp(`^\\s*[${UPPER}][${LOWER}]+(\\s+[^\\s=;(){}<>]+)*\\s*[^\\s,;(){}<>=|&]$`),
  // a JSX text line holding inline tags: "Seleccione un <code>…</code>", "<Icon /> Descargar formato"
  new RegExp(`^\\s*[¿¡]?[${UPPER}][${LOWER}]+ [${LOWER}]+`),
  new RegExp(`(?<!=)>\\s*[${UPPER}][${LOWER}]+( [^\\s<{]+)*\\s*$`),
  // a string literal with an accented letter or Spanish punctuation
  /["'`][^"'`]*[áéíóúñÁÉÍÓÚÑ¿¡«»][^"'`]*["'`]/,
  // a string literal that is a sentence: a capitalised word followed by another word
  new RegExp(`["'\`][${UPPER}][${LOWER}]+ [${LOWER}]+`),
  // a user-facing prop or choice given a literal instead of a key
  new RegExp(
    `\\b(label|title|placeholder|helperText|aria-label|emptyText|nullLabel|trueLabel|falseLabel|confirm|cancel|content|tooltip|alt)=["'][${UPPER}]`,
  ),
  new RegExp(`\\b(name|label|title|text|message|content):\\s*["'\`][${UPPER}][${LOWER}]`),
  // a toast or a fallback text spelled in place
  new RegExp(`\\bnotify\\(\\s*["'\`][${UPPER}]`),
  new RegExp(`(\\?\\?|\\|\\||[?:,=])\\s*["'\`][${UPPER}][${LOWER}]+["'\`]`),
];
/** Capitalised English words the code compares or stores (key names, polymorphic types), not texts. */
const CODE_WORDS =
  /["'`](Client|Prospect|Project|Enter|Escape|Tab|Backspace|Delete|ArrowUp|ArrowDown|Home|End|PageUp|PageDown)["'`]/g;

/** Keys a file names in string literals: react-admin's own and the app's. */
const keysIn = (source: string) =>
  [...source.matchAll(/["'`]((?:ra|sia|resources)\.[a-z_]+(?:\.[a-z_]+)+)["'`]/g)].map((m) => m[1]);

describe("texts of src/admin and src/timesheet", () => {
  it("scans the screens (the file list is not empty)", () => {
    expect(SCREENS.length).toBeGreaterThan(100);
    expect(SCREENS).toContain("src/admin/pages/NoticesPage.tsx");
  });

  it.each(SCREENS)("%s names only keys es.ts has", (file) => {
    const keys = keysIn(readFileSync(file, "utf8"));
    expect(keys.filter((key) => !catalogue.has(key))).toEqual([]);
  });

  it.each(SCREENS)("%s spells no Spanish text in its code", (file) => {
    const lines = readFileSync(file, "utf8")
      .split("\n")
      .filter((line) => !/^\s*(\/\/|\*|\/\*\*)/.test(line));
    const spelled = lines.filter((line) => SPANISH_IN_CODE.some((pattern) => pattern.test(line.replace(CODE_WORDS, ""))));
    expect(spelled).toEqual([]);
  });

  it("keys built at run time exist too (licence choices, glossary, freeze verbs)", () => {
    const built = [
      ...[...licenseTypeChoices, ...licenseModuleChoices, ...environmentChoices, ...statusChoices].map((c) => c.name),
      ...["P", "S", "PC", "AS", "RH"].map((code) => `sia.glossary.kinds.${code}`),
      ...["close_activities", "open_activities", "close_month_activities", "open_month_activities"].flatMap((verb) => [
        `sia.timesheet.freeze.${verb}`,
        `sia.timesheet.freeze_ask.${verb}`,
      ]),
    ];
    expect(built.filter((key) => !catalogue.has(key))).toEqual([]);
    expect(i18nProvider.translate("sia.prospects.open_quotations", { smart_count: 1 })).toBe(
      "Su cotización abierta pasa al cliente y sigue desde ahí.",
    );
    expect(i18nProvider.translate("sia.prospects.open_quotations", { smart_count: 3 })).toBe(
      "Sus 3 cotizaciones abiertas pasan al cliente y siguen desde ahí.",
    );
    const saved = (n: number) => i18nProvider.translate("sia.timesheet_import.saved_week_info", { type: "ICS", smart_count: n });
    expect(saved(1)).toContain("1 cambio aún no guardado en el SIA");
    expect(saved(2)).toContain("2 cambios aún no guardados en el SIA");
  });

  it("the detection catches each kind of spelled text", () => {
    const caught = (line: string) => SPANISH_IN_CODE.some((pattern) => pattern.test(line.replace(CODE_WORDS, "")));
    for (const line of [
      "<Button>Guardar</Button>",
      "          Cancelar",
      "          Convertir a cliente",
      'notify("Elemento guardado")',
      '<TextField source="x" label="Grupo de clientes" />',
      '<TextField source="x" label="Producto" />',
      '<SearchInput placeholder="Buscar por nombre" />',
      '<TextInput helperText="Formato #RRGGBB" />',
      '<Title title="Historial" />',
      '{ id: "active", name: "Activa" }',
      '{row.user_name ?? "Sistema"}',
      'const x = "Días";',
      '{busy ? "Guardando" : "Guardar"}',
      '  today: "Hoy",',
      '  ["P", "Proyecto"],',
    ])
      expect(caught(line), line).toBe(true);
    for (const line of [
      '<TextField source="x" label="resources.clients.fields.name" />',
      "  Datagrid,",
      "  multiline",
      'if (e.key === "Enter") {',
      '  kind: "Client",',
      "  send: (comment: string) => Promise<string>;",
      'const t = translate("sia.board.empty");',
    ])
      expect(caught(line), line).toBe(false);
  });
});

describe("board, bell and notices texts", () => {
  it("keeps the wording the people using SIA know", () => {
    const t = i18nProvider.translate;
    expect(t("sia.board.empty")).toBe("Aún no hay mensajes en este tablero.");
    expect(t("sia.board.seen_by", { names: "Beto Tablero, Ana" })).toBe("Visto por Beto Tablero, Ana");
    expect(t("sia.board.counter", { length: 0, max: 500 })).toBe("0/500");
    expect(t("sia.board.cannot_chat", { reason: "Sin permiso" })).toBe(
      "Sin permiso. Pida a un administrador que le habilite el chat.",
    );
    expect(t("sia.bell.kinds.mention")).toBe("Te mencionaron");
    expect(t("sia.bell.activation_failed", { error: "sin red" })).toBe("No se pudieron activar las notificaciones: sin red");
    expect(t("sia.notices.counter", { length: 12, max: 1000 })).toBe("12/1000");
    expect(t("sia.notices.send")).toBe("Enviar aviso");
  });
});

describe("i18nProvider", () => {
  it("is Spanish only", () => {
    expect(i18nProvider.getLocale()).toBe("es");
    expect(i18nProvider.getLocales?.()).toEqual([{ locale: "es", name: "Español" }]);
  });

  it("pluralises react-admin and resource messages", () => {
    const t = i18nProvider.translate;
    expect(t("ra.action.bulk_actions", { smart_count: 1 })).toBe("1 elemento seleccionado");
    expect(t("ra.action.bulk_actions", { smart_count: 3 })).toBe("3 elementos seleccionados");
    expect(t("resources.clients.name", { smart_count: 1 })).toBe("Cliente");
    expect(t("resources.clients.name", { smart_count: 2 })).toBe("Clientes");
    expect(t("resources.holydays.name", { smart_count: 2 })).toBe("Días festivos");
    expect(t("resources.products.name", { smart_count: 2 })).toBe("Catálogo de productos");
    expect(t("ra.navigation.page_range_info", { offsetBegin: 1, offsetEnd: 10, total: 42 })).toBe("1-10 de 42");
    expect(t("sia.app_bar.version", { version: "1.44.0" })).toBe("Versión 1.44.0");
  });

  it("interpolates every Spanish ra message without leaving a placeholder behind", () => {
    for (const key of englishKeys) {
      const values = Object.fromEntries(placeholders(english.get(key) ?? "").map((p) => [p.slice(2, -1), "X"]));
      for (const smart_count of [1, 5]) {
        const text = i18nProvider.translate(key, { ...values, smart_count });
        expect(text, key).not.toMatch(/%\{/);
        expect(text, key).not.toBe(key);
      }
    }
  });
});
