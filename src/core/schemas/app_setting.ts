import { flag, optionalId, z } from "./fields";
import { autoApproveDays } from "./week_review";

/** The firm's settings (single row, id 1). */
export const appSettingSchema = z.object({
  default_customer_id: optionalId(),
  default_workspace_id: optionalId(),
  support_excluded_customer_id: optionalId(),
  /** Hours on days after today (vacation planned ahead is always allowed). */
  allow_future_activities: flag(),
  /** A week left in review this many days is approved by SIA; empty: never. */
  auto_approve_days: autoApproveDays().optional(),
});
export type AppSettingInput = z.infer<typeof appSettingSchema>;
export const appSettingUpdateSchema = appSettingSchema.partial();
