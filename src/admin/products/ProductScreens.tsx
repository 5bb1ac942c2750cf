import { zodResolver } from "@hookform/resolvers/zod";
import { Grid, Link, Typography } from "@mui/material";
import {
  AutocompleteInput,
  BooleanField,
  BooleanInput,
  NullableBooleanInput,
  ReferenceInput,
  SimpleShowLayout,
  TextField,
  TextInput,
  useRecordContext,
} from "react-admin";
import { productSchema } from "../../core/schemas/product";
import { driveFolderLabel } from "../common/DriveFolderLink";
import { SearchFilter } from "../common/SearchFilter";
import { SiaCreate, SiaEdit, SiaList, SiaShow } from "../common/screens";
import { safeHref } from "./safeHref";

const resolver = zodResolver(productSchema as never);

const filters = [
  <SearchFilter key="q" source="q" alwaysOn placeholder="sia.products.search" />,
  <NullableBooleanInput
    key="selectable"
    source="selectable"
    label="resources.products.fields.is_selectable"
    nullLabel="sia.filters.all"
    trueLabel="sia.filters.yes"
    falseLabel="sia.filters.no"
  />,
  <TextInput key="category" source="by_category" label="resources.products.fields.product_category" />,
  <ReferenceInput key="employee" source="employee_id" reference="employees" perPage={1000} sort={{ field: "name", order: "ASC" }}>
    <AutocompleteInput optionText="name" label="resources.products.fields.employee_id" sx={{ minWidth: 240 }} />
  </ReferenceInput>,
];

export function ProductList() {
  return (
    <SiaList filters={filters} sort={{ field: "name", order: "ASC" }}>
      <TextField source="product_code" />
      <TextField source="name" />
      <TextField source="application_id" emptyText="—" />
      <TextField source="product_category" emptyText="—" />
      <TextField source="employee_name" emptyText="—" />
      <BooleanField source="is_selectable" />
    </SiaList>
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
        <ReferenceInput
          source="employee_id"
          reference="employees"
          perPage={1000}
          sort={{ field: "name", order: "ASC" }}
          filter={{ is_active: true }}
        >
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

export function ProductCreate() {
  return (
    <SiaCreate resolver={resolver} defaultValues={{ is_selectable: true }}>
      <ProductInputs />
    </SiaCreate>
  );
}

export function ProductEdit() {
  return (
    <SiaEdit resolver={resolver}>
      <ProductInputs />
    </SiaEdit>
  );
}

function SafeLinkField({ source }: { source: string; label?: string }) {
  const record = useRecordContext();
  const value = record?.[source];
  const href = safeHref(value);
  if (!href) return <Typography variant="body2">{typeof value === "string" && value ? value : "—"}</Typography>;
  return (
    <Link href={href} target="_blank" rel="noopener noreferrer" variant="body2">
      {driveFolderLabel(href)}
    </Link>
  );
}

export function ProductShow() {
  return (
    <SiaShow>
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
    </SiaShow>
  );
}

/** The screens, loaded on demand (src/admin/products/index.ts declares the resource). */
export const screens = {
  list: ProductList,
  create: ProductCreate,
  edit: ProductEdit,
  show: ProductShow,
};
