/** Spanish labels of an activity's fields, from react-admin's catalogue (resources.activities.fields). */
import { resources } from "../../../admin/i18n/es";
import { fieldLabel } from "../../../admin/i18n/fieldLabels";

const FIELDS: Record<string, string> = resources.activities.fields;

/**
 * The label of an activity field ('product_catalog_id' → 'Producto'), for lines such as
 * «lun 09:00–10:00 · Producto: es obligatorio». Null for 'base' (a message about the whole activity).
 */
export function activityFieldLabel(field: string): string | null {
  if (field === "base") return null;
  return FIELDS[field] ?? fieldLabel(field, "activities");
}

/** Translation key of a field label, for components that use react-admin's translate. */
export const fieldKey = (field: string) => `resources.activities.fields.${field}`;
