import { zodResolver } from "@hookform/resolvers/zod";
import { NumberField, TextField, TextInput } from "react-admin";
import { employeePositionSchema, employeePositionUpdateSchema } from "../../core/schemas/employee_position";
import { EditLink, editRowClick } from "../common/links";
import { SearchFilter } from "../common/SearchFilter";
import { SiaCreate, SiaEdit, SiaList } from "../common/screens";

const createResolver = zodResolver(employeePositionSchema as never);
const updateResolver = zodResolver(employeePositionUpdateSchema);

export function EmployeePositionList() {
  return (
    <SiaList
      filters={[<SearchFilter key="q" source="q" alwaysOn placeholder="sia.employee_positions.search" />]}
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

/** The screens, loaded on demand (src/admin/employee_positions/index.ts declares the resource). */
export const screens = {
  list: EmployeePositionList,
  create: EmployeePositionCreate,
  edit: EmployeePositionEdit,
};
