import { recordError } from "../common/RecordError";
import WorkIcon from "@mui/icons-material/Work";
import { zodResolver } from "@hookform/resolvers/zod";
import {
  Create,
  Datagrid,
  DeleteButton,
  Edit,
  List,
  NumberField,
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
import { employeePositionSchema, employeePositionUpdateSchema } from "../../core/schemas/employee_position";
import { CreateLink, EditLink } from "../common/links";
import { SiaPagination } from "../common/SiaPagination";

const createResolver = zodResolver(employeePositionSchema as never);
const updateResolver = zodResolver(employeePositionUpdateSchema as never);

const editRowClick = (id: unknown) => screenPath("employee_positions", "edit", id as string);

export function EmployeePositionList() {
  return (
    <List
      filters={[<SearchInput key="q" source="q" alwaysOn placeholder="Buscar por nombre" />]}
      perPage={10}
      sort={{ field: "name", order: "ASC" }}
      pagination={<SiaPagination />}
      actions={
        <TopToolbar>
          <CreateLink />
        </TopToolbar>
      }
    >
      <Datagrid rowClick={editRowClick} bulkActionButtons={false}>
        <TextField source="id" />
        <TextField source="name" />
        <NumberField source="employees_count" locales="es-MX" />
        <EditLink />
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
      redirect(screenPath("employee_positions", "list"));
    },
  };
}

export function EmployeePositionCreate() {
  return (
    <Create mutationOptions={useSaved()}>
      <SimpleForm resolver={createResolver}>
        <TextInput source="name" fullWidth />
      </SimpleForm>
    </Create>
  );
}

export function EmployeePositionEdit() {
  return (
    <Edit error={recordError} mutationMode="pessimistic" mutationOptions={useSaved()}>
      <SimpleForm
        resolver={updateResolver}
        toolbar={
          <Toolbar sx={{ justifyContent: "space-between" }}>
            <SaveButton />
            <DeleteButton mutationMode="pessimistic" redirect={screenPath("employee_positions", "list")} />
          </Toolbar>
        }
      >
        <TextInput source="name" fullWidth />
      </SimpleForm>
    </Edit>
  );
}

export const employeePositions = {
  list: EmployeePositionList,
  create: EmployeePositionCreate,
  edit: EmployeePositionEdit,
  icon: WorkIcon,
  recordRepresentation: "name",
};
