import { zodResolver } from "@hookform/resolvers/zod";
import { Link as MuiLink } from "@mui/material";
import { ArrayField, NumberField, SimpleShowLayout, TextField, TextInput, useRecordContext, useTranslate } from "react-admin";
import { Link } from "react-router-dom";
import { messages } from "../../core/messages";
import { screenPath } from "../../core/resources";
import { clientGroupSchema } from "../../core/schemas/client_group";
import { SiaDatagrid } from "../common/PhoneRows";
import { SearchFilter } from "../common/SearchFilter";
import { SiaCreate, SiaEdit, SiaList, SiaShow } from "../common/screens";

const resolver = zodResolver(clientGroupSchema as never);
const filters = [<SearchFilter key="q" source="q" alwaysOn placeholder="sia.client_groups.search" />];

export function ClientGroupList() {
  return (
    <SiaList filters={filters} sort={{ field: "name", order: "ASC" }}>
      <TextField source="name" />
      <NumberField source="clients_count" locales="es-MX" />
    </SiaList>
  );
}

/** SPEC §8: the toast on saving a client group is 'Grupo de Cliente'. */
export function ClientGroupCreate() {
  return (
    <SiaCreate resolver={resolver} message={messages.clientGroupSaved}>
      <TextInput source="name" fullWidth />
    </SiaCreate>
  );
}

export function ClientGroupEdit() {
  return (
    <SiaEdit resolver={resolver} message={messages.clientGroupSaved}>
      <TextInput source="name" fullWidth />
    </SiaEdit>
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
  const translate = useTranslate();
  return (
    <SiaShow>
      <SimpleShowLayout>
        <TextField source="name" />
        <ArrayField source="clients">
          <SiaDatagrid
            bulkActionButtons={false}
            rowClick={false}
            empty={<span>{translate("sia.client_groups.no_clients")}</span>}
          >
            <TextField source="client_code" label="resources.client_groups.fields.client_code" />
            <ClientLink label="resources.client_groups.fields.client" />
          </SiaDatagrid>
        </ArrayField>
      </SimpleShowLayout>
    </SiaShow>
  );
}

/** The screens, loaded on demand (src/admin/client_groups/index.ts declares the resource). */
export const screens = {
  list: ClientGroupList,
  create: ClientGroupCreate,
  edit: ClientGroupEdit,
  show: ClientGroupShow,
};
