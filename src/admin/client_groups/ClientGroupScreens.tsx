import GroupWorkIcon from "@mui/icons-material/GroupWork";
import { recordError } from "../common/RecordError";
import { zodResolver } from "@hookform/resolvers/zod";
import { Link as MuiLink } from "@mui/material";
import {
  ArrayField,
  Create,
  Datagrid,
  DeleteButton,
  Edit,
  List,
  NumberField,
  SaveButton,
  SearchInput,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextField,
  TextInput,
  Toolbar,
  TopToolbar,
  useNotify,
  useRecordContext,
  useRedirect,
} from "react-admin";
import { Link } from "react-router-dom";
import { messages } from "../../core/messages";
import { screenPath } from "../../core/resources";
import { clientGroupSchema } from "../../core/schemas/client_group";
import { CreateLink, EditLink, showRowClick } from "../common/links";
import { SiaPagination } from "../common/SiaPagination";

const resolver = zodResolver(clientGroupSchema as never);
const filters = [<SearchInput key="q" source="q" alwaysOn placeholder="Buscar por nombre" />];

export function ClientGroupList() {
  return (
    <List
      filters={filters}
      perPage={10}
      sort={{ field: "name", order: "ASC" }}
      pagination={<SiaPagination />}
      actions={
        <TopToolbar>
          <CreateLink />
        </TopToolbar>
      }
    >
      <Datagrid rowClick={showRowClick} bulkActionButtons={false}>
        <TextField source="name" />
        <NumberField source="clients_count" locales="es-MX" />
      </Datagrid>
    </List>
  );
}

/** SPEC §8: the toast on saving a client group is 'Grupo de Cliente'. */
function useSaved() {
  const notify = useNotify();
  const redirect = useRedirect();
  return {
    onSuccess: (data: { id: number }) => {
      notify(messages.clientGroupSaved, { type: "success" });
      redirect(screenPath("client_groups", "show", data.id));
    },
  };
}

export function ClientGroupCreate() {
  return (
    <Create mutationOptions={useSaved()}>
      <SimpleForm resolver={resolver}>
        <TextInput source="name" fullWidth />
      </SimpleForm>
    </Create>
  );
}

export function ClientGroupEdit() {
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
        <TextInput source="name" fullWidth />
      </SimpleForm>
    </Edit>
  );
}

function ClientLink(_props: { label?: string }) {
  const record = useRecordContext<{ id: number; name: string }>();
  if (!record) return null;
  return (
    <MuiLink component={Link} to={screenPath("clients", "show", record.id)}>
      {record.name}
    </MuiLink>
  );
}

export function ClientGroupShow() {
  return (
    <Show error={recordError}
      actions={
        <TopToolbar>
          <EditLink />
        </TopToolbar>
      }
    >
      <SimpleShowLayout>
        <TextField source="name" />
        <ArrayField source="clients">
          <Datagrid bulkActionButtons={false} rowClick={false} empty={<span>El grupo no tiene clientes</span>}>
            <TextField source="client_code" label="Código" />
            <ClientLink label="Cliente" />
          </Datagrid>
        </ArrayField>
      </SimpleShowLayout>
    </Show>
  );
}

export const clientGroups = {
  list: ClientGroupList,
  create: ClientGroupCreate,
  edit: ClientGroupEdit,
  show: ClientGroupShow,
  icon: GroupWorkIcon,
  recordRepresentation: "name",
};
