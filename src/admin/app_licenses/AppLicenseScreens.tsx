import DownloadIcon from "@mui/icons-material/Download";
import { recordError } from "../common/RecordError";
import KeyIcon from "@mui/icons-material/Key";
import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Chip, CircularProgress, Stack } from "@mui/material";
import { useState } from "react";
import {
  AutocompleteInput,
  BooleanField,
  Create,
  Datagrid,
  DateField,
  DeleteButton,
  Edit,
  FunctionField,
  List,
  NumberField,
  ReferenceInput,
  SaveButton,
  SearchInput,
  SelectField,
  SelectInput,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextField,
  Toolbar,
  TopToolbar,
  useNotify,
  useRecordContext,
  useRedirect,
} from "react-admin";
import { LICENSE_DEFAULTS } from "../../core/constants";
import { messages } from "../../core/messages";
import { screenPath } from "../../core/resources";
import { appLicenseSchema } from "../../core/schemas/app_license";
import { downloadFile } from "../common/CsvDownloadButton";
import { CreateLink, EditLink, showRowClick } from "../common/links";
import { SiaPagination } from "../common/SiaPagination";
import { AppLicenseInputs } from "./AppLicenseInputs";
import { environmentChoices, licenseTypeChoices, moduleLabel, statusChoices } from "./licenseChoices";

const resolver = zodResolver(appLicenseSchema as never);
const day = { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" } as const;

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Buscar por entidad o RFC" />,
  <ReferenceInput key="client" source="by_client" reference="clients" perPage={1000} sort={{ field: "name", order: "ASC" }}>
    <AutocompleteInput optionText="name" label="Cliente" sx={{ minWidth: 240 }} />
  </ReferenceInput>,
  <ReferenceInput key="product" source="by_product" reference="products" perPage={1000} sort={{ field: "name", order: "ASC" }}>
    <SelectInput optionText="name" label="Producto" />
  </ReferenceInput>,
  <SelectInput key="type" source="by_license_type" label="Tipo de licencia" choices={licenseTypeChoices} />,
  <SelectInput key="status" source="by_status" label="Estado" choices={statusChoices} />,
];

/** GET app_licenses/:id/download_license_script: the SQL that installs the licence. */
export function LicenseScriptButton({ label = "Descargar script SQL" }: { label?: string }) {
  const record = useRecordContext();
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  if (!record) return null;
  return (
    <Button
      size="small"
      startIcon={busy ? <CircularProgress size={16} /> : <DownloadIcon />}
      disabled={busy}
      onClick={async (e) => {
        e.stopPropagation();
        setBusy(true);
        try {
          await downloadFile(`app_licenses/${record.id}/download_license_script`, {}, `licencia_${record.id}.sql`);
        } catch (error) {
          notify((error as Error).message, { type: "error" });
        } finally {
          setBusy(false);
        }
      }}
    >
      {label}
    </Button>
  );
}

function ModulesField(_props: { label?: string }) {
  const record = useRecordContext<{ modules?: string[] }>();
  const modules = record?.modules ?? [];
  if (!modules.length) return <span>—</span>;
  return (
    <Stack direction="row" spacing={0.5}>
      {modules.map((m) => (
        <Chip key={m} size="small" label={moduleLabel(m)} />
      ))}
    </Stack>
  );
}

export function AppLicenseList() {
  return (
    <List
      filters={filters}
      perPage={10}
      sort={{ field: "id", order: "DESC" }}
      pagination={<SiaPagination />}
      actions={
        <TopToolbar>
          <CreateLink />
        </TopToolbar>
      }
    >
      <Datagrid rowClick={showRowClick} bulkActionButtons={false}>
        <TextField source="entity_name" />
        <TextField source="entity_rfc" />
        <TextField source="client_name" emptyText="—" />
        <TextField source="product_name" emptyText="—" />
        <SelectField source="environment" choices={environmentChoices} />
        <SelectField source="license_type" choices={licenseTypeChoices} />
        <NumberField source="num_licenses" locales="es-MX" />
        <DateField source="license_valid_until" locales="es-MX" options={day} emptyText="—" />
        <BooleanField source="is_active" />
        <LicenseScriptButton label="Script SQL" />
      </Datagrid>
    </List>
  );
}

function useSaved() {
  const notify = useNotify();
  const redirect = useRedirect();
  return {
    onSuccess: (data: { id: number }) => {
      notify(messages.saved, { type: "success" });
      redirect(screenPath("app_licenses", "show", data.id));
    },
  };
}

export function AppLicenseCreate() {
  return (
    <Create mutationOptions={useSaved()}>
      <SimpleForm
        resolver={resolver}
        defaultValues={{ ...LICENSE_DEFAULTS, modules: [], is_active: true, has_mesa_electronica_license_key: false }}
      >
        <AppLicenseInputs />
      </SimpleForm>
    </Create>
  );
}

export function AppLicenseEdit() {
  return (
    <Edit error={recordError} mutationMode="pessimistic" mutationOptions={useSaved()}>
      <SimpleForm
        resolver={resolver}
        toolbar={
          <Toolbar sx={{ justifyContent: "space-between" }}>
            <SaveButton />
            <DeleteButton mutationMode="pessimistic" redirect="list" />
          </Toolbar>
        }
      >
        <AppLicenseInputs />
      </SimpleForm>
    </Edit>
  );
}

export function AppLicenseShow() {
  return (
    <Show error={recordError}
      actions={
        <TopToolbar>
          <EditLink />
          <LicenseScriptButton />
        </TopToolbar>
      }
    >
      <SimpleShowLayout>
        <TextField source="entity_name" />
        <TextField source="entity_rfc" />
        <TextField source="client_name" emptyText="—" />
        <TextField source="product_name" emptyText="—" />
        <SelectField source="environment" choices={environmentChoices} />
        <SelectField source="license_type" choices={licenseTypeChoices} />
        <NumberField source="num_licenses" locales="es-MX" />
        <DateField source="license_valid_until" locales="es-MX" options={day} emptyText="—" />
        <ModulesField label="resources.app_licenses.fields.modules" />
        <FunctionField
          source="has_mesa_electronica_license_key"
          render={(r: { has_mesa_electronica_license_key?: boolean }) => (r.has_mesa_electronica_license_key ? "Sí" : "No")}
        />
        <BooleanField source="is_active" />
      </SimpleShowLayout>
    </Show>
  );
}

export const appLicenses = {
  list: AppLicenseList,
  create: AppLicenseCreate,
  edit: AppLicenseEdit,
  show: AppLicenseShow,
  icon: KeyIcon,
  recordRepresentation: "entity_name",
};
