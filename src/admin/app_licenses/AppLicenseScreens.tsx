import { zodResolver } from "@hookform/resolvers/zod";
import DownloadIcon from "@mui/icons-material/Download";
import { Button, Chip, CircularProgress, Stack } from "@mui/material";
import { useState } from "react";
import {
  AutocompleteInput,
  BooleanField,
  FunctionField,
  NumberField,
  ReferenceInput,
  SelectField,
  SelectInput,
  SimpleShowLayout,
  TextField,
  useDataProvider,
  useNotify,
  useRecordContext,
  useTranslate,
} from "react-admin";
import { LICENSE_DEFAULTS } from "../../core/constants";
import { appLicenseSchema } from "../../core/schemas/app_license";
import type { SiaDataProvider } from "../../dataProvider";
import { SiaDateField } from "../common/DateField";
import { SearchFilter } from "../common/SearchFilter";
import { SiaCreate, SiaEdit, SiaList, SiaShow } from "../common/screens";
import { AppLicenseInputs } from "./AppLicenseInputs";
import { environmentChoices, licenseTypeChoices, moduleLabel, statusChoices } from "./licenseChoices";

const resolver = zodResolver(appLicenseSchema as never);

const filters = [
  <SearchFilter key="q" source="q" alwaysOn placeholder="sia.app_licenses.search" />,
  <ReferenceInput key="client" source="by_client" reference="clients" perPage={1000} sort={{ field: "name", order: "ASC" }}>
    <AutocompleteInput optionText="name" sx={{ minWidth: 240 }} />
  </ReferenceInput>,
  <ReferenceInput key="product" source="by_product" reference="products" perPage={1000} sort={{ field: "name", order: "ASC" }}>
    <SelectInput optionText="name" />
  </ReferenceInput>,
  <SelectInput key="type" source="by_license_type" choices={licenseTypeChoices} emptyText="sia.filters.all" />,
  <SelectInput key="status" source="by_status" choices={statusChoices} emptyText="sia.filters.all" />,
];

/** GET app_licenses/:id/download_license_script: the SQL that installs the licence. */
export function LicenseScriptButton({ label = "sia.app_licenses.download_script" }: { label?: string }) {
  const translate = useTranslate();
  const record = useRecordContext();
  const notify = useNotify();
  const dataProvider = useDataProvider<SiaDataProvider>();
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
          await dataProvider.downloadLicenseScript(record.id);
        } catch (error) {
          notify((error as Error).message, { type: "error" });
        } finally {
          setBusy(false);
        }
      }}
    >
      {translate(label)}
    </Button>
  );
}

function ModulesField(_props: { label?: string }) {
  const translate = useTranslate();
  const record = useRecordContext<{ modules?: string[] }>();
  const modules = record?.modules ?? [];
  if (!modules.length) return <span>—</span>;
  return (
    <Stack direction="row" spacing={0.5}>
      {modules.map((m) => (
        <Chip key={m} size="small" label={translate(moduleLabel(m), { _: m })} />
      ))}
    </Stack>
  );
}

/** The licence's columns, shown alike in the list and on its detail. */
const licenseFields = [
  <TextField key="entity_name" source="entity_name" />,
  <TextField key="entity_rfc" source="entity_rfc" />,
  <TextField key="client_name" source="client_name" emptyText="—" />,
  <TextField key="product_name" source="product_name" emptyText="—" />,
  <SelectField key="environment" source="environment" choices={environmentChoices} />,
  <SelectField key="license_type" source="license_type" choices={licenseTypeChoices} />,
  <NumberField key="num_licenses" source="num_licenses" locales="es-MX" />,
  <SiaDateField key="valid_until" source="license_valid_until" />,
];

export function AppLicenseList() {
  return (
    <SiaList filters={filters} sort={{ field: "entity_name", order: "ASC" }}>
      {licenseFields}
      <BooleanField source="is_active" />
      <LicenseScriptButton label="sia.app_licenses.script" />
    </SiaList>
  );
}

export function AppLicenseCreate() {
  return (
    <SiaCreate
      resolver={resolver}
      defaultValues={{ ...LICENSE_DEFAULTS, modules: [], is_active: true, has_mesa_electronica_license_key: false }}
    >
      <AppLicenseInputs />
    </SiaCreate>
  );
}

export function AppLicenseEdit() {
  return (
    <SiaEdit resolver={resolver}>
      <AppLicenseInputs />
    </SiaEdit>
  );
}

export function AppLicenseShow() {
  const translate = useTranslate();
  return (
    <SiaShow actions={<LicenseScriptButton />}>
      <SimpleShowLayout>
        {licenseFields}
        <ModulesField label="resources.app_licenses.fields.modules" />
        <FunctionField
          source="has_mesa_electronica_license_key"
          render={(r: { has_mesa_electronica_license_key?: boolean }) =>
            translate(r.has_mesa_electronica_license_key ? "sia.filters.yes" : "sia.filters.no")
          }
        />
        <BooleanField source="is_active" />
      </SimpleShowLayout>
    </SiaShow>
  );
}

/** The screens, loaded on demand (src/admin/app_licenses/index.ts declares the resource). */
export const screens = {
  list: AppLicenseList,
  create: AppLicenseCreate,
  edit: AppLicenseEdit,
  show: AppLicenseShow,
};
