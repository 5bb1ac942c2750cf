import CategoryIcon from "@mui/icons-material/Category";
import { recordError } from "../common/RecordError";
import { zodResolver } from "@hookform/resolvers/zod";
import { Box, Stack } from "@mui/material";
import {
  Create,
  Datagrid,
  DeleteButton,
  Edit,
  List,
  SaveButton,
  SearchInput,
  SimpleForm,
  TextInput,
  TextField,
  Toolbar,
  TopToolbar,
  useNotify,
  useRecordContext,
  useRedirect,
} from "react-admin";
import { useWatch } from "react-hook-form";
import { messages } from "../../core/messages";
import { screenPath } from "../../core/resources";
import { COLOR_TAG_PATTERN, projectTypeSchema } from "../../core/schemas/project_type";
import { CreateLink } from "../common/links";
import { SiaPagination } from "../common/SiaPagination";

const resolver = zodResolver(projectTypeSchema as never);
const filters = [<SearchInput key="q" source="q" alwaysOn placeholder="Buscar por nombre" />];
const editRowClick = (id: unknown) => screenPath("project_types", "edit", id as string);

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
      <TextInput source="color_tag" helperText="Formato #RRGGBB, por ejemplo #1976D2" />
      <Swatch color={typeof value === "string" ? value.toUpperCase() : null} />
    </Stack>
  );
}

export function ProjectTypeList() {
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
        <TextField source="name" />
        <ColorField label="resources.project_types.fields.color_tag" sortable={false} />
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
      redirect(screenPath("project_types", "list"));
    },
  };
}

export function ProjectTypeCreate() {
  return (
    <Create mutationOptions={useSaved()}>
      <SimpleForm resolver={resolver}>
        <TextInput source="name" fullWidth />
        <ColorInput />
      </SimpleForm>
    </Create>
  );
}

export function ProjectTypeEdit() {
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
        <ColorInput />
      </SimpleForm>
    </Edit>
  );
}

export const projectTypes = {
  list: ProjectTypeList,
  create: ProjectTypeCreate,
  edit: ProjectTypeEdit,
  icon: CategoryIcon,
  recordRepresentation: "name",
};
