/**
 * The Spanish name of a field an API error is about (`employee_position_id` → «Puesto»), for the toasts of
 * SPEC §8 («Error en los parametros {campo}»): a person reads the label the form shows, never the column.
 * Labels come from the screens' catalogue (resources.<resource>.fields); the resource of the call is
 * preferred, then any resource that names the field. The data provider knows no screen: the app hands it
 * this lookup at start (`provideFieldLabels` in src/admin/App.tsx).
 */
import { apiFields, resources } from "./es";

type Labels = { [field: string]: string | Labels };
type Catalogue = Record<string, { fields?: Labels }>;
const CATALOGUE = resources as unknown as Catalogue;

/** Keys of errors that are not a field of any form (their labels are in the screens' catalogue too). */
const NOT_FIELDS: Record<string, string> = apiFields;

/** Every label by its dotted path (`event.starts_at`), from every resource (the first one wins). */
const anyResource = new Map<string, string>();
function collect(labels: Labels, prefix: string) {
  for (const [field, label] of Object.entries(labels)) {
    const path = prefix ? `${prefix}.${field}` : field;
    if (typeof label === "string") {
      if (!anyResource.has(path)) anyResource.set(path, label);
    } else collect(label, path);
  }
}
for (const entry of Object.values(CATALOGUE)) collect(entry.fields ?? {}, "");

/** A label at a dotted path of one resource's fields (only a text, never a group of labels). */
function inResource(resource: string, path: string): string | undefined {
  let at: string | Labels | undefined = CATALOGUE[resource]?.fields;
  for (const part of path.split(".")) at = typeof at === "object" ? at[part] : undefined;
  return typeof at === "string" ? at : undefined;
}

function labelOf(field: string, resource?: string): string | undefined {
  return (resource ? inResource(resource, field) : undefined) ?? NOT_FIELDS[field] ?? anyResource.get(field);
}

/**
 * `client_code` → «Código»; a nested key (`event.starts_at`, `client_product_catalogs_attributes.0.annual_support_hours`)
 * by its whole path first, then by its last named part. A key no catalogue knows is written with spaces
 * rather than underscores.
 */
export function fieldLabel(field: string, resource?: string): string {
  const direct = labelOf(field, resource);
  if (direct) return direct;
  const named = field.split(".").filter((part) => !/^\d+$/.test(part));
  const last = named[named.length - 1];
  const label = named.length
    ? (labelOf(named.join("."), resource) ?? labelOf(last, resource) ?? labelOf(named[0], resource))
    : undefined;
  return label ?? field.replace(/[._]+/g, " ").trim();
}
