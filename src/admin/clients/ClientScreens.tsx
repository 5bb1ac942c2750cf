import { zodResolver } from "@hookform/resolvers/zod";
import {
  ArrayField,
  BooleanField,
  EmailField,
  NumberField,
  ReferenceInput,
  SelectInput,
  SimpleShowLayout,
  TextField,
  useCanAccess,
  useTranslate,
} from "react-admin";
import { NEW_CLIENT_CODE } from "../../core/constants";
import { messages } from "../../core/messages";
import { clientFormSchema } from "../../core/schemas/client";
import { DriveCheckButton } from "../common/DriveCheckButton";
import { DriveFolderField } from "../common/DriveFolderLink";
import { withNested } from "../common/nested";
import { SiaDatagrid } from "../common/PhoneRows";
import { SearchFilter } from "../common/SearchFilter";
import { SiaCreate, SiaEdit, SiaList, SiaShow } from "../common/screens";
import { ClientSupportPanel } from "../dashboards/panels";
import { ClientInputs } from "./ClientInputs";

const resolver = zodResolver(clientFormSchema as never);
const transform = withNested("client_product_catalogs", ["product_catalog_id", "annual_support_hours"]);

export function ClientList() {
  const { canAccess: canSeeGroups } = useCanAccess({ resource: "client_groups", action: "list" });
  const filters = [
    <SearchFilter key="q" source="q" alwaysOn placeholder="sia.clients.search" />,
    ...(canSeeGroups
      ? [
          <ReferenceInput
            key="group"
            source="by_client_group"
            reference="client_groups"
            perPage={1000}
            sort={{ field: "name", order: "ASC" }}
            alwaysOn
          >
            <SelectInput optionText="name" emptyText="sia.filters.all" />
          </ReferenceInput>,
        ]
      : []),
  ];
  return (
    <SiaList filters={filters} sort={{ field: "name", order: "ASC" }} csv>
      <TextField source="client_code" />
      <TextField source="name" />
      <TextField source="rfc" />
      <TextField source="client_group_name" />
      <EmailField source="email" />
      <BooleanField source="is_production_ready" />
    </SiaList>
  );
}

export function ClientCreate() {
  return (
    <SiaCreate
      transform={transform}
      resolver={resolver}
      message={messages.clientCreated}
      defaultValues={{ client_code: NEW_CLIENT_CODE, client_product_catalogs: [] }}
    >
      <ClientInputs creating />
    </SiaCreate>
  );
}

export function ClientEdit() {
  return (
    <SiaEdit transform={transform} resolver={resolver} message={messages.clientUpdated}>
      <ClientInputs />
    </SiaEdit>
  );
}

export function ClientShow() {
  const translate = useTranslate();
  return (
    <SiaShow actions={<DriveCheckButton resource="clients" />}>
      <SimpleShowLayout>
        <TextField source="client_code" />
        <TextField source="name" />
        <TextField source="complete_name" emptyText="—" />
        <TextField source="rfc" emptyText="—" />
        <EmailField source="email" emptyText="—" />
        <TextField source="client_group_name" label="resources.clients.fields.client_group_id" emptyText="sia.common.none" />
        <BooleanField source="is_production_ready" />
        <BooleanField source="was_prospect" />
        <DriveFolderField source="drive_root_url" />
        <ArrayField source="client_product_catalogs">
          <SiaDatagrid bulkActionButtons={false} rowClick={false} empty={<span>{translate("sia.clients.no_products")}</span>}>
            <TextField source="product_catalog_name" label="resources.clients.fields.product_catalog_name" />
            <NumberField source="annual_support_hours" label="resources.clients.fields.annual_support_hours" locales="es-MX" />
          </SiaDatagrid>
        </ArrayField>
      </SimpleShowLayout>
      <ClientSupportPanel />
    </SiaShow>
  );
}

/** The screens, loaded on demand (src/admin/clients/index.ts declares the resource). */
export const screens = {
  list: ClientList,
  create: ClientCreate,
  edit: ClientEdit,
  show: ClientShow,
};
