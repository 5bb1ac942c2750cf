/** The firm's single settings row (id 1): one form at /app/app_settings (also /app/app_settings/update/1). */

import { zodResolver } from "@hookform/resolvers/zod";
import { AutocompleteInput, Edit, ReferenceInput, SaveButton, SimpleForm, Toolbar, useCanAccess, useNotify } from "react-admin";
import { messages } from "../../core/messages";
import { appSettingSchema } from "../../core/schemas/app_setting";
import { recordError } from "../common/RecordError";
import { StaleVersionNotice, useStaleVersion } from "../common/StaleVersion";

const resolver = zodResolver(appSettingSchema);
export const APP_SETTINGS_ID = 1;

export function AppSettingsEdit() {
  const notify = useNotify();
  const { canAccess } = useCanAccess({ resource: "app_settings", action: "edit" });
  const stale = useStaleVersion(undefined, "app_settings");
  return (
    <Edit
      error={recordError}
      id={APP_SETTINGS_ID}
      resource="app_settings"
      mutationMode="pessimistic"
      redirect={false}
      title="Configuración"
      transform={stale.withVersion()}
      mutationOptions={{ onSuccess: () => notify(messages.saved, { type: "success" }), onError: stale.onError }}
    >
      <SimpleForm
        resolver={resolver}
        disabled={!canAccess}
        toolbar={
          canAccess ? (
            <Toolbar>
              <SaveButton />
            </Toolbar>
          ) : (
            false
          )
        }
      >
        <StaleVersionNotice state={stale.state} />
        <ReferenceInput source="default_customer_id" reference="clients" perPage={1000} sort={{ field: "name", order: "ASC" }}>
          <AutocompleteInput optionText="name" fullWidth helperText="Para actividades internas y de recursos humanos" />
        </ReferenceInput>
        <ReferenceInput
          source="default_workspace_id"
          reference="workspaces"
          perPage={1000}
          sort={{ field: "name", order: "ASC" }}
        >
          <AutocompleteInput optionText="name" fullWidth />
        </ReferenceInput>
        <ReferenceInput
          source="support_excluded_customer_id"
          reference="clients"
          perPage={1000}
          sort={{ field: "name", order: "ASC" }}
        >
          <AutocompleteInput optionText="name" fullWidth helperText="No se ofrece en las actividades de soporte" />
        </ReferenceInput>
      </SimpleForm>
    </Edit>
  );
}

/** The screens, loaded on demand (src/admin/app_settings/index.ts declares the resource). */
export const screens = {
  list: AppSettingsEdit,
  edit: AppSettingsEdit,
};
