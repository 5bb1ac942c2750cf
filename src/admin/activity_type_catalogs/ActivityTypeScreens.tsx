import LabelIcon from "@mui/icons-material/Label";
import { recordError } from "../common/RecordError";
import { zodResolver } from "@hookform/resolvers/zod";
import {
  Create,
  Datagrid,
  DeleteButton,
  Edit,
  List,
  SaveButton,
  SearchInput,
  SimpleForm,
  TextField,
  TextInput,
  Toolbar,
  TopToolbar,
  useNotify,
  useRedirect,
} from "react-admin";
import { messages } from "../../core/messages";
import { screenPath } from "../../core/resources";
import { activityTypeCatalogSchema } from "../../core/schemas/activity_type_catalog";
import { CreateLink } from "../common/links";
import { SiaPagination } from "../common/SiaPagination";

const resolver = zodResolver(activityTypeCatalogSchema as never);
const filters = [<SearchInput key="q" source="q" alwaysOn placeholder="Buscar por clave o nombre" />];
const editRowClick = (id: unknown) => screenPath("activity_type_catalogs", "edit", id as string);

export function ActivityTypeList() {
  return (
    <List
      filters={filters}
      perPage={10}
      sort={{ field: "id", order: "ASC" }}
      pagination={<SiaPagination />}
      actions={
        <TopToolbar>
          <CreateLink />
        </TopToolbar>
      }
    >
      <Datagrid rowClick={editRowClick} bulkActionButtons={false}>
        <TextField source="id" />
        <TextField source="code" />
        <TextField source="name" />
      </Datagrid>
    </List>
  );
}

function useSaved() {
  const notify = useNotify();
  const redirect = useRedirect();
  return {
    onSuccess: () => {
      notify(messages.saved, { type: "success" });
      redirect(screenPath("activity_type_catalogs", "list"));
    },
  };
}

function Inputs() {
  return (
    <>
      <TextInput source="code" helperText="De 2 a 4 letras mayúsculas (por ejemplo PY)" />
      <TextInput source="name" fullWidth />
    </>
  );
}

export function ActivityTypeCreate() {
  return (
    <Create mutationOptions={useSaved()}>
      <SimpleForm resolver={resolver}>
        <Inputs />
      </SimpleForm>
    </Create>
  );
}

export function ActivityTypeEdit() {
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
        <Inputs />
      </SimpleForm>
    </Edit>
  );
}

export const activityTypeCatalogs = {
  list: ActivityTypeList,
  create: ActivityTypeCreate,
  edit: ActivityTypeEdit,
  icon: LabelIcon,
  recordRepresentation: "name",
};
