import { zodResolver } from "@hookform/resolvers/zod";
import WorkIcon from "@mui/icons-material/Work";
import { NumberField, SearchInput, TextField, TextInput } from "react-admin";
import { employeePositionSchema, employeePositionUpdateSchema } from "../../core/schemas/employee_position";
import { EditLink, editRowClick } from "../common/links";
import { SiaCreate, SiaEdit, SiaList } from "../common/screens";

const createResolver = zodResolver(employeePositionSchema as never);
const updateResolver = zodResolver(employeePositionUpdateSchema as never);

export function EmployeePositionList() {
  return (
    <SiaList
      filters={[<SearchInput key="q" source="q" alwaysOn placeholder="Buscar por nombre" />]}
      sort={{ field: "name", order: "ASC" }}
      rowClick={editRowClick}
    >
      <TextField source="id" />
      <TextField source="name" />
      <NumberField source="employees_count" locales="es-MX" />
      <EditLink />
    </SiaList>
  );
}

export function EmployeePositionCreate() {
  return (
    <SiaCreate resolver={createResolver} then="list">
      <TextInput source="name" fullWidth />
    </SiaCreate>
  );
}

export function EmployeePositionEdit() {
  return (
    <SiaEdit resolver={updateResolver} then="list">
      <TextInput source="name" fullWidth />
    </SiaEdit>
  );
}

export const employeePositions = {
  list: EmployeePositionList,
  create: EmployeePositionCreate,
  edit: EmployeePositionEdit,
  icon: WorkIcon,
  recordRepresentation: "name",
};
