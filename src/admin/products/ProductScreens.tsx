import Inventory2Icon from "@mui/icons-material/Inventory2";
import { recordError } from "../common/RecordError";
import { zodResolver } from "@hookform/resolvers/zod";
import { Grid, Link, Typography } from "@mui/material";
import {
  AutocompleteInput,
  BooleanField,
  BooleanInput,
  Create,
  Datagrid,
  DeleteButton,
  Edit,
  List,
  NullableBooleanInput,
  ReferenceInput,
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
import { messages } from "../../core/messages";
import { screenPath } from "../../core/resources";
import { productSchema } from "../../core/schemas/product";
import { CreateLink, EditLink, showRowClick } from "../common/links";
import { SiaPagination } from "../common/SiaPagination";
import { safeHref } from "./safeHref";

const resolver = zodResolver(productSchema as never);

const filters = [
  <SearchInput key="q" source="q" alwaysOn placeholder="Buscar por nombre o código" />,
  <NullableBooleanInput key="selectable" source="selectable" label="Seleccionable en actividades" nullLabel="Todos" trueLabel="Sí" falseLabel="No" />,
  <TextInput key="category" source="by_category" label="Categoría" />,
  <ReferenceInput key="employee" source="employee_id" reference="employees" perPage={1000} sort={{ field: "name", order: "ASC" }}>
    <AutocompleteInput optionText="name" label="Responsable" sx={{ minWidth: 240 }} />
  </ReferenceInput>,
];

export function ProductList() {
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
        <TextField source="product_code" />
        <TextField source="name" />
        <TextField source="application_id" emptyText="—" />
        <TextField source="product_category" emptyText="—" />
        <TextField source="employee_name" emptyText="—" />
        <BooleanField source="is_selectable" />
      </Datagrid>
    </List>
  );
}

function ProductInputs() {
  return (
    <Grid container columnSpacing={2} sx={{ width: "100%" }}>
      <Grid size={{ xs: 12, md: 3 }}>
        <TextInput source="product_code" fullWidth />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <TextInput source="name" fullWidth />
      </Grid>
      <Grid size={{ xs: 12, md: 3 }}>
        <TextInput source="application_id" fullWidth />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <ReferenceInput source="employee_id" reference="employees" perPage={1000} sort={{ field: "name", order: "ASC" }} filter={{ is_active: true }}>
          <AutocompleteInput optionText="name" fullWidth />
        </ReferenceInput>
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <TextInput source="product_category" fullWidth />
      </Grid>
      <Grid size={{ xs: 12, md: 8 }}>
        <TextInput source="brochure_url" fullWidth type="url" />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <TextInput source="brochure_id" fullWidth />
      </Grid>
      <Grid size={{ xs: 12, md: 8 }}>
        <TextInput source="form_url" fullWidth type="url" />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <TextInput source="form_id" fullWidth />
      </Grid>
      <Grid size={12}>
        <BooleanInput source="is_selectable" />
      </Grid>
    </Grid>
  );
}

function useSaved() {
  const notify = useNotify();
  const redirect = useRedirect();
  return {
    onSuccess: (data: { id: number }) => {
      notify(messages.saved, { type: "success" });
      redirect(screenPath("products", "show", data.id));
    },
  };
}

export function ProductCreate() {
  return (
    <Create mutationOptions={useSaved()}>
      <SimpleForm resolver={resolver} defaultValues={{ is_selectable: true }}>
        <ProductInputs />
      </SimpleForm>
    </Create>
  );
}

export function ProductEdit() {
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
        <ProductInputs />
      </SimpleForm>
    </Edit>
  );
}

function SafeLinkField({ source }: { source: string; label?: string }) {
  const record = useRecordContext();
  const value = record?.[source];
  const href = safeHref(value);
  if (!href) return <Typography variant="body2">{typeof value === "string" && value ? value : "—"}</Typography>;
  return (
    <Link href={href} target="_blank" rel="noopener noreferrer" variant="body2">
      {href}
    </Link>
  );
}

export function ProductShow() {
  return (
    <Show error={recordError}
      actions={
        <TopToolbar>
          <EditLink />
        </TopToolbar>
      }
    >
      <SimpleShowLayout>
        <TextField source="product_code" />
        <TextField source="name" />
        <TextField source="application_id" emptyText="—" />
        <TextField source="employee_name" emptyText="—" />
        <TextField source="product_category" emptyText="—" />
        <SafeLinkField source="brochure_url" label="resources.products.fields.brochure_url" />
        <TextField source="brochure_id" emptyText="—" />
        <SafeLinkField source="form_url" label="resources.products.fields.form_url" />
        <TextField source="form_id" emptyText="—" />
        <BooleanField source="is_selectable" />
      </SimpleShowLayout>
    </Show>
  );
}

export const products = {
  list: ProductList,
  create: ProductCreate,
  edit: ProductEdit,
  show: ProductShow,
  icon: Inventory2Icon,
  recordRepresentation: "name",
};
