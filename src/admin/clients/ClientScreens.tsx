import { recordError } from "../common/RecordError";
import BusinessIcon from "@mui/icons-material/Business";
import { zodResolver } from "@hookform/resolvers/zod";
import {
  ArrayField,
  BooleanField,
  Create,
  Datagrid,
  DeleteButton,
  Edit,
  EmailField,
  List,
  NumberField,
  ReferenceInput,
  SaveButton,
  SearchInput,
  SelectInput,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextField,
  Toolbar,
  TopToolbar,
  useCanAccess,
  useNotify,
  useRedirect,
  UrlField,
} from "react-admin";
import { messages } from "../../core/messages";
import { screenPath } from "../../core/resources";
import { clientFormSchema } from "../../core/schemas/client";
import { CsvDownloadButton } from "../common/CsvDownloadButton";
import { CreateLink, EditLink, showRowClick } from "../common/links";
import { withNested } from "../common/nested";
import { SiaPagination } from "../common/SiaPagination";
import { ClientInputs } from "./ClientInputs";

const resolver = zodResolver(clientFormSchema as never);
const transform = withNested("client_product_catalogs", ["product_catalog_id", "annual_support_hours"]);

function ClientListActions() {
  return (
    <TopToolbar>
      <CreateLink />
      <CsvDownloadButton />
    </TopToolbar>
  );
}

export function ClientList() {
  const { canAccess: canSeeGroups } = useCanAccess({ resource: "client_groups", action: "list" });
  const filters = [
    <SearchInput key="q" source="q" alwaysOn placeholder="Buscar por nombre, código o RFC" />,
    ...(canSeeGroups
      ? [
          <ReferenceInput key="group" source="by_client_group" reference="client_groups" perPage={1000} sort={{ field: "name", order: "ASC" }}>
            <SelectInput optionText="name" label="Grupo de clientes" />
          </ReferenceInput>,
        ]
      : []),
  ];
  return (
    <List filters={filters} perPage={10} sort={{ field: "name", order: "ASC" }} pagination={<SiaPagination />} actions={<ClientListActions />}>
      <Datagrid rowClick={showRowClick} bulkActionButtons={false}>
        <TextField source="client_code" />
        <TextField source="name" />
        <TextField source="rfc" />
        <TextField source="client_group_name" label="Grupo de clientes" sortBy="client_group_name" />
        <EmailField source="email" />
        <BooleanField source="is_production_ready" />
      </Datagrid>
    </List>
  );
}

function useSaved(message: string) {
  const notify = useNotify();
  const redirect = useRedirect();
  return {
    onSuccess: (data: { id: number }) => {
      notify(message, { type: "success" });
      redirect(screenPath("clients", "show", data.id));
    },
  };
}

export function ClientCreate() {
  return (
    <Create transform={transform} mutationOptions={useSaved(messages.clientCreated)}>
      <SimpleForm resolver={resolver} defaultValues={{ client_code: "0", client_product_catalogs: [] }}>
        <ClientInputs creating />
      </SimpleForm>
    </Create>
  );
}

function EditToolbar() {
  return (
    <Toolbar sx={{ justifyContent: "space-between" }}>
      <SaveButton />
      <DeleteButton mutationMode="pessimistic" redirect="list" />
    </Toolbar>
  );
}

export function ClientEdit() {
  return (
    <Edit error={recordError} transform={transform} mutationMode="pessimistic" mutationOptions={useSaved(messages.clientUpdated)}>
      <SimpleForm resolver={resolver} toolbar={<EditToolbar />}>
        <ClientInputs />
      </SimpleForm>
    </Edit>
  );
}

export function ClientShow() {
  return (
    <Show error={recordError}
      actions={
        <TopToolbar>
          <EditLink />
        </TopToolbar>
      }
    >
      <SimpleShowLayout>
        <TextField source="client_code" />
        <TextField source="name" />
        <TextField source="complete_name" emptyText="—" />
        <TextField source="rfc" emptyText="—" />
        <EmailField source="email" emptyText="—" />
        <TextField source="client_group_name" label="Grupo de clientes" emptyText="Ninguno" />
        <BooleanField source="is_production_ready" />
        <BooleanField source="was_prospect" />
        <UrlField source="drive_root_url" emptyText="—" target="_blank" rel="noopener noreferrer" />
        <ArrayField source="client_product_catalogs">
          <Datagrid bulkActionButtons={false} rowClick={false} empty={<span>Sin productos configurados</span>}>
            <TextField source="product_catalog_name" label="Producto" />
            <NumberField source="annual_support_hours" label="Horas de soporte anuales" locales="es-MX" />
          </Datagrid>
        </ArrayField>
      </SimpleShowLayout>
    </Show>
  );
}


export const clients = {
  list: ClientList,
  create: ClientCreate,
  edit: ClientEdit,
  show: ClientShow,
  icon: BusinessIcon,
  recordRepresentation: "name",
};
