/**
 * The name a toast of SPEC §8 («Error en los parametros {campo}») gives the field an API error is about.
 * The labels are the screens' (src/admin/i18n/fieldLabels.ts); the data provider depends on no screen, so
 * the app hands it the lookup at start. Until then a key is written with spaces rather than underscores.
 */

/** `field` (a dotted path such as `event.starts_at`) → the label a person reads, for `resource`'s call. */
export type FieldLabelLookup = (field: string, resource?: string) => string;

const spaced: FieldLabelLookup = (field) => field.replace(/[._]+/g, " ").trim();
let lookup: FieldLabelLookup = spaced;

/** Set by the app before its first call (src/admin/App.tsx). */
export function provideFieldLabels(labels: FieldLabelLookup) {
  lookup = labels;
}

export const fieldLabel = (field: string, resource?: string): string => lookup(field, resource);

/** The resource an API path is about: `estimated_work_hours/3` → `estimated_work_hours`. */
export const resourceOfPath = (path: string) => path.split(/[/?.]/, 1)[0];
