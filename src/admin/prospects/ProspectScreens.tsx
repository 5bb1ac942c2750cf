import SwapHorizIcon from "@mui/icons-material/SwapHoriz";
import { DriveFolderInput } from "../common/DriveFolderInput";
import { recordError } from "../common/RecordError";
import TravelExploreIcon from "@mui/icons-material/TravelExplore";
import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Tooltip } from "@mui/material";
import {
  Create,
  Datagrid,
  DateField,
  DeleteButton,
  Edit,
  List,
  SaveButton,
  SearchInput,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextField,
  TextInput,
  Toolbar,
  TopToolbar,
  UrlField,
  useNotify,
  useRedirect,
} from "react-admin";
import { messages } from "../../core/messages";
import { screenPath } from "../../core/resources";
import { prospectSchema } from "../../core/schemas/prospect";
import { CreateLink, EditLink, showRowClick } from "../common/links";
import { SiaPagination } from "../common/SiaPagination";

const resolver = zodResolver(prospectSchema as never);
const dateTime = { dateStyle: "medium", timeStyle: "short" } as const;

const filters = [<SearchInput key="q" source="q" alwaysOn placeholder="Buscar por nombre" />];

export function ProspectList() {
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
        <TextField source="id" />
        <TextField source="name" />
        <UrlField source="drive_root_url" emptyText="—" target="_blank" rel="noopener noreferrer" onClick={(e) => e.stopPropagation()} sortable={false} />
        <DateField source="created_at" locales="es-MX" options={dateTime} showTime />
      </Datagrid>
    </List>
  );
}

function ProspectInputs() {
  return (
    <>
      <TextInput source="name" fullWidth />
      <DriveFolderInput helperText="Al darlo de alta se crea su carpeta CV_ dentro de la carpeta elegida (o en la raíz del drive)" />
    </>
  );
}

function useSaved() {
  const notify = useNotify();
  const redirect = useRedirect();
  return {
    onSuccess: (data: { id: number }) => {
      notify(messages.saved, { type: "success" });
      redirect(screenPath("prospects", "show", data.id));
    },
  };
}

export function ProspectCreate() {
  return (
    <Create mutationOptions={useSaved()}>
      <SimpleForm resolver={resolver}>
        <ProspectInputs />
      </SimpleForm>
    </Create>
  );
}

export function ProspectEdit() {
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
        <ProspectInputs />
      </SimpleForm>
    </Edit>
  );
}

/** Conversion to client (SPEC §4) comes with the drive folder picker: shown, but not yet available. */
function ConvertToClientButton() {
  return (
    <Tooltip title="Disponible próximamente">
      <span>
        <Button size="small" startIcon={<SwapHorizIcon />} disabled>
          Convertir en cliente
        </Button>
      </span>
    </Tooltip>
  );
}

export function ProspectShow() {
  return (
    <Show error={recordError}
      actions={
        <TopToolbar>
          <EditLink />
          <ConvertToClientButton />
        </TopToolbar>
      }
    >
      <SimpleShowLayout>
        <TextField source="name" />
        <UrlField source="drive_root_url" emptyText="—" target="_blank" rel="noopener noreferrer" />
        <DateField source="created_at" locales="es-MX" options={dateTime} showTime />
      </SimpleShowLayout>
    </Show>
  );
}

export const prospects = {
  list: ProspectList,
  create: ProspectCreate,
  edit: ProspectEdit,
  show: ProspectShow,
  icon: TravelExploreIcon,
  recordRepresentation: "name",
};
