/** The firm's single settings row (id 1): one form at /app/app_settings (also /app/app_settings/update/1). */

import { zodResolver } from "@hookform/resolvers/zod";
import { AutocompleteInput, BooleanInput, NumberInput, ReferenceInput, useCanAccess } from "react-admin";
import { appSettingSchema } from "../../core/schemas/app_setting";
import { SiaEdit } from "../common/screens";

const resolver = zodResolver(appSettingSchema);
export const APP_SETTINGS_ID = 1;

/** One form that stays where it is after a save; who may only read it sees it disabled. */
export function AppSettingsEdit() {
  const { canAccess } = useCanAccess({ resource: "app_settings", action: "edit" });
  return (
    <SiaEdit
      id={APP_SETTINGS_ID}
      resource="app_settings"
      title="resources.app_settings.title"
      then={false}
      deletable={false}
      readOnly={!canAccess}
      resolver={resolver}
    >
      <ReferenceInput source="default_customer_id" reference="clients" perPage={1000} sort={{ field: "name", order: "ASC" }}>
        <AutocompleteInput optionText="name" fullWidth helperText="resources.app_settings.help.default_customer_id" />
      </ReferenceInput>
      <ReferenceInput source="default_workspace_id" reference="workspaces" perPage={1000} sort={{ field: "name", order: "ASC" }}>
        <AutocompleteInput optionText="name" fullWidth />
      </ReferenceInput>
      <ReferenceInput
        source="support_excluded_customer_id"
        reference="clients"
        perPage={1000}
        sort={{ field: "name", order: "ASC" }}
      >
        <AutocompleteInput optionText="name" fullWidth helperText="resources.app_settings.help.support_excluded_customer_id" />
      </ReferenceInput>
      <BooleanInput source="allow_future_activities" helperText="resources.app_settings.help.allow_future_activities" />
      <NumberInput
        source="auto_approve_days"
        min={1}
        max={60}
        step={1}
        helperText="resources.app_settings.help.auto_approve_days"
        sx={{ maxWidth: "24rem" }}
      />
    </SiaEdit>
  );
}

/** The screens, loaded on demand (src/admin/app_settings/index.ts declares the resource). */
export const screens = {
  list: AppSettingsEdit,
  edit: AppSettingsEdit,
};
