import { LICENSE_DEFAULTS, LICENSE_ENVIRONMENTS, LICENSE_MODULES, LICENSE_TYPES } from "../constants";
import { messages } from "../messages";
import { RFC_PATTERN } from "./client";
import { flag, notANumber, optionalIsoDate, requiredId, requiredText, z } from "./fields";

const upper = (v: unknown) => (typeof v === "string" ? v.trim().toUpperCase() : v);

const shape = {
  client_id: requiredId(),
  product_catalog_id: requiredId(),
  entity_name: requiredText(300),
  entity_rfc: z.preprocess(
    upper,
    z
      .string({ error: messages.required })
      .min(1, { error: messages.required })
      .regex(RFC_PATTERN, { error: messages.invalidRfc }),
  ),
  environment: z.enum(LICENSE_ENVIRONMENTS, { error: messages.invalidEnvironment }),
  num_licenses: z.coerce
    .number({ error: notANumber })
    .int({ error: messages.mustBeWholeNumber })
    .min(1, { error: messages.mustBeGreaterThanZero })
    .max(1_000_000),
  license_valid_until: optionalIsoDate(),
  license_type: z.enum(LICENSE_TYPES, { error: messages.invalidLicenseType }),
  /** Forced to false by the server unless the product is Siglo CD (SPEC §5). */
  has_mesa_electronica_license_key: flag(),
  modules: z
    .array(z.enum(LICENSE_MODULES, { error: messages.invalidModule }), { error: messages.invalidValue })
    .max(LICENSE_MODULES.length * 2)
    .transform((list) => LICENSE_MODULES.filter((m) => list.includes(m))),
  is_active: flag(),
};

/** Application licence (SPEC §3 App license), with the defaults of SPEC §9. */
export const appLicenseSchema = z.object({
  ...shape,
  environment: shape.environment.default(LICENSE_DEFAULTS.environment),
  num_licenses: shape.num_licenses.default(LICENSE_DEFAULTS.num_licenses),
  license_type: shape.license_type.default(LICENSE_DEFAULTS.license_type),
  modules: shape.modules.default([]),
});
export type AppLicenseInput = z.infer<typeof appLicenseSchema>;
/** Updates change only what they carry: no defaults here. */
export const appLicenseUpdateSchema = z.object(shape).partial();
