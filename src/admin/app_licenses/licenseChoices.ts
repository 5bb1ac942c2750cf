/** Spanish labels of the licence values (SPEC §3, §9); the stored values stay as the API spells them. */
import { LICENSE_ENVIRONMENTS, LICENSE_MODULES, LICENSE_TYPES } from "../../core/constants";

const TYPE_LABELS: Record<(typeof LICENSE_TYPES)[number], string> = {
  rent: "Renta",
  concurrent_users: "Usuarios concurrentes",
  named_users: "Usuarios nominales",
};
const MODULE_LABELS: Record<(typeof LICENSE_MODULES)[number], string> = {
  Emission: "Emisión",
  Reception: "Recepción",
  Conciliation: "Conciliación",
};
const ENVIRONMENT_LABELS: Record<(typeof LICENSE_ENVIRONMENTS)[number], string> = {
  prod: "Producción",
  test: "Pruebas",
};

export const licenseTypeChoices = LICENSE_TYPES.map((id) => ({ id, name: TYPE_LABELS[id] }));
export const licenseModuleChoices = LICENSE_MODULES.map((id) => ({ id, name: MODULE_LABELS[id] }));
export const environmentChoices = LICENSE_ENVIRONMENTS.map((id) => ({ id, name: ENVIRONMENT_LABELS[id] }));
export const statusChoices = [
  { id: "active", name: "Activa" },
  { id: "inactive", name: "Inactiva" },
];
export const moduleLabel = (id: string) => MODULE_LABELS[id as keyof typeof MODULE_LABELS] ?? id;
