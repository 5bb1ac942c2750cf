import { zodResolver } from "@hookform/resolvers/zod";
import { Switch } from "@mui/material";
import { useState } from "react";
import {
  ArrayField,
  ArrayInput,
  AutocompleteInput,
  BooleanField,
  BooleanInput,
  DeleteButton,
  NumberField,
  ReferenceInput,
  SimpleFormIterator,
  SimpleShowLayout,
  TextField,
  TextInput,
  useCanAccess,
  useDataProvider,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
} from "react-admin";
import { messages } from "../../core/messages";
import { screenPath } from "../../core/resources";
import { workspaceFormSchema } from "../../core/schemas/workspace";
import type { SiaDataProvider } from "../../dataProvider";
import { EditLink } from "../common/links";
import { withNested } from "../common/nested";
import { SiaDatagrid } from "../common/PhoneRows";
import { SearchFilter } from "../common/SearchFilter";
import { SiaCreate, SiaEdit, SiaList, SiaShow } from "../common/screens";
import { useStaleRetry } from "../common/staleRetry";

const resolver = zodResolver(workspaceFormSchema as never);
const transform = withNested("bosses_workspaces", ["employee_id"]);

/** Per-row switch: PUT workspaces/:id/toggle_notification (SPEC §7). */
function NotificationToggle(_props: { label?: string }) {
  const record = useRecordContext();
  const dataProvider = useDataProvider<SiaDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const { canAccess } = useCanAccess({ resource: "workspaces", action: "update" });
  const staleText = useStaleRetry();
  const translate = useTranslate();
  const [busy, setBusy] = useState(false);
  if (!record) return null;
  return (
    <Switch
      checked={Boolean(record.is_notifiable)}
      disabled={busy || !canAccess}
      onClick={(e) => e.stopPropagation()}
      slotProps={{ input: { "aria-label": translate("sia.workspaces.notifications_of", { name: record.name }) } }}
      onChange={async () => {
        setBusy(true);
        try {
          const updated = await dataProvider.toggleWorkspaceNotification(record.id, record.lock_version);
          notify(updated.is_notifiable ? "sia.workspaces.notifications_on" : "sia.workspaces.notifications_off", {
            type: "success",
          });
          refresh();
        } catch (error) {
          // A 409: someone else flipped it first; the list is read again and shows their choice.
          notify(staleText(error, messages.somethingFailed, false), { type: "error" });
        } finally {
          setBusy(false);
        }
      }}
    />
  );
}
NotificationToggle.displayName = "NotificationToggle";

export function WorkspaceList() {
  const { canAccess: canDelete } = useCanAccess({ resource: "workspaces", action: "delete" });
  return (
    <SiaList
      filters={[<SearchFilter key="q" source="q" alwaysOn placeholder="sia.workspaces.search" />]}
      sort={{ field: "name", order: "ASC" }}
    >
      <TextField source="id" />
      <TextField source="name" />
      <NumberField source="employees_count" locales="es-MX" />
      <NotificationToggle label="resources.workspaces.fields.is_notifiable" />
      <EditLink />
      {canDelete && <DeleteButton mutationMode="pessimistic" redirect={false} />}
    </SiaList>
  );
}

function WorkspaceInputs() {
  return (
    <>
      <TextInput source="name" fullWidth />
      <BooleanInput source="is_notifiable" />
      <ArrayInput source="bosses_workspaces">
        <SimpleFormIterator inline disableReordering>
          <ReferenceInput source="employee_id" reference="employees" perPage={1000} sort={{ field: "name", order: "ASC" }}>
            <AutocompleteInput optionText="name" label="resources.workspaces.fields.employee_id" sx={{ minWidth: 320 }} />
          </ReferenceInput>
        </SimpleFormIterator>
      </ArrayInput>
    </>
  );
}

export function WorkspaceCreate() {
  return (
    <SiaCreate resolver={resolver} transform={transform} defaultValues={{ is_notifiable: false, bosses_workspaces: [] }}>
      <WorkspaceInputs />
    </SiaCreate>
  );
}

export function WorkspaceEdit() {
  return (
    <SiaEdit resolver={resolver} transform={transform}>
      <WorkspaceInputs />
    </SiaEdit>
  );
}

const employeeRowClick = (id: unknown) => screenPath("employees", "show", id as string);

export function WorkspaceShow() {
  const translate = useTranslate();
  return (
    <SiaShow>
      <SimpleShowLayout>
        <TextField source="id" />
        <TextField source="name" />
        <BooleanField source="is_notifiable" />
        <ArrayField source="bosses_workspaces">
          <SiaDatagrid bulkActionButtons={false} rowClick={false} empty={<span>{translate("sia.workspaces.no_bosses")}</span>}>
            <TextField source="employee_name" label="resources.workspaces.fields.employee_name" />
          </SiaDatagrid>
        </ArrayField>
        <ArrayField source="employees">
          <SiaDatagrid
            bulkActionButtons={false}
            rowClick={employeeRowClick}
            empty={<span>{translate("sia.workspaces.no_employees")}</span>}
          >
            <TextField source="employee_code" label="resources.workspaces.fields.employee_code" />
            <TextField source="name" label="resources.workspaces.fields.name" />
            <BooleanField source="is_active" label="resources.workspaces.fields.is_active" />
          </SiaDatagrid>
        </ArrayField>
      </SimpleShowLayout>
    </SiaShow>
  );
}

/** The screens, loaded on demand (src/admin/workspaces/index.ts declares the resource). */
export const screens = {
  list: WorkspaceList,
  create: WorkspaceCreate,
  edit: WorkspaceEdit,
  show: WorkspaceShow,
};
