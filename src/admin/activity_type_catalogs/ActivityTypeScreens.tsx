import { zodResolver } from "@hookform/resolvers/zod";
import { TextField, TextInput } from "react-admin";
import { activityTypeCatalogSchema } from "../../core/schemas/activity_type_catalog";
import { editRowClick } from "../common/links";
import { SearchFilter } from "../common/SearchFilter";
import { SiaCreate, SiaEdit, SiaList } from "../common/screens";

const resolver = zodResolver(activityTypeCatalogSchema as never);
const filters = [<SearchFilter key="q" source="q" alwaysOn placeholder="sia.activity_type_catalogs.search" />];

export function ActivityTypeList() {
  return (
    <SiaList filters={filters} sort={{ field: "id", order: "ASC" }} rowClick={editRowClick}>
      <TextField source="id" />
      <TextField source="code" />
      <TextField source="name" />
    </SiaList>
  );
}

function Inputs() {
  return (
    <>
      <TextInput source="code" helperText="sia.activity_type_catalogs.code_help" />
      <TextInput source="name" fullWidth />
    </>
  );
}

export function ActivityTypeCreate() {
  return (
    <SiaCreate resolver={resolver} then="list">
      <Inputs />
    </SiaCreate>
  );
}

export function ActivityTypeEdit() {
  return (
    <SiaEdit resolver={resolver} then="list">
      <Inputs />
    </SiaEdit>
  );
}

/** The screens, loaded on demand (src/admin/activity_type_catalogs/index.ts declares the resource). */
export const screens = {
  list: ActivityTypeList,
  create: ActivityTypeCreate,
  edit: ActivityTypeEdit,
};
