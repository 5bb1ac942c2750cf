import { zodResolver } from "@hookform/resolvers/zod";
import { Box, Stack } from "@mui/material";
import { TextField, TextInput, useRecordContext } from "react-admin";
import { useWatch } from "react-hook-form";
import { COLOR_TAG_PATTERN, projectTypeSchema } from "../../core/schemas/project_type";
import { editRowClick } from "../common/links";
import { SearchFilter } from "../common/SearchFilter";
import { SiaCreate, SiaEdit, SiaList } from "../common/screens";

const resolver = zodResolver(projectTypeSchema as never);
const filters = [<SearchFilter key="q" source="q" alwaysOn placeholder="sia.project_types.search" />];

export function Swatch({ color }: { color?: string | null }) {
  const valid = typeof color === "string" && COLOR_TAG_PATTERN.test(color);
  return (
    <Box
      aria-hidden
      sx={{
        width: 24,
        height: 24,
        borderRadius: 1,
        border: "1px solid",
        borderColor: "divider",
        bgcolor: valid ? color : "transparent",
        flexShrink: 0,
      }}
    />
  );
}

function ColorField(_props: { label?: string; sortable?: boolean }) {
  const record = useRecordContext<{ color_tag?: string | null }>();
  return (
    <Stack direction="row" spacing={1} alignItems="center">
      <Swatch color={record?.color_tag} />
      <span>{record?.color_tag ?? "—"}</span>
    </Stack>
  );
}

function ColorInput() {
  const value = useWatch({ name: "color_tag" });
  return (
    <Stack direction="row" spacing={2} alignItems="center">
      <TextInput source="color_tag" helperText="sia.project_types.color_help" />
      <Swatch color={typeof value === "string" ? value.toUpperCase() : null} />
    </Stack>
  );
}

export function ProjectTypeList() {
  return (
    <SiaList filters={filters} sort={{ field: "id", order: "ASC" }} rowClick={editRowClick}>
      <TextField source="id" />
      <TextField source="name" />
      <ColorField label="resources.project_types.fields.color_tag" />
    </SiaList>
  );
}

export function ProjectTypeCreate() {
  return (
    <SiaCreate resolver={resolver} then="list">
      <TextInput source="name" fullWidth />
      <ColorInput />
    </SiaCreate>
  );
}

export function ProjectTypeEdit() {
  return (
    <SiaEdit resolver={resolver} then="list">
      <TextInput source="name" fullWidth />
      <ColorInput />
    </SiaEdit>
  );
}

/** The screens, loaded on demand (src/admin/project_types/index.ts declares the resource). */
export const screens = {
  list: ProjectTypeList,
  create: ProjectTypeCreate,
  edit: ProjectTypeEdit,
};
