/** The timesheet's activity dialog: its contract with the page, and the field labels for error lines. */
export { ActivityDialog, type ActivityDialogProps } from "./ActivityDialog";
export { activityFieldLabel } from "./labels";
export type { ActivityDialogTarget, ActivityFormValues, AppSettingsLite, ChoiceLabels } from "./types";
