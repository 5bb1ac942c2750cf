import { Grid } from "@mui/material";
import { useEffect } from "react";
import {
  ArrayInput,
  AutocompleteInput,
  BooleanInput,
  NumberInput,
  ReferenceInput,
  SelectInput,
  SimpleFormIterator,
  TextInput,
  useDataProvider,
} from "react-admin";
import { useFormContext } from "react-hook-form";
import { NEW_CLIENT_CODE } from "../../core/constants";
import type { SiaDataProvider } from "../../dataProvider";
import { DriveFolderInput } from "../common/DriveFolderInput";
import { SimilarClientConfirm } from "./SimilarClientConfirm";

/** On a new client, the code the server will give it next (SPEC §2: '0' until supplied). */
function NextClientCode() {
  const dataProvider = useDataProvider<SiaDataProvider>();
  const { getValues, setValue } = useFormContext();
  useEffect(() => {
    let active = true;
    dataProvider
      .nextClientCode()
      .then((code) => {
        if (active && (getValues("client_code") ?? NEW_CLIENT_CODE) === NEW_CLIENT_CODE)
          setValue("client_code", code, { shouldDirty: true });
      })
      .catch(() => undefined);
    return () => {
      active = false;
    };
  }, [dataProvider, getValues, setValue]);
  return null;
}

export function ClientInputs({ creating = false }: { creating?: boolean }) {
  return (
    <Grid container columnSpacing={2} sx={{ width: "100%" }}>
      {creating && <NextClientCode />}
      {creating && (
        <Grid size={12}>
          <SimilarClientConfirm />
        </Grid>
      )}
      <Grid size={{ xs: 12, md: 6 }}>
        <TextInput source="name" fullWidth />
      </Grid>
      <Grid size={{ xs: 12, md: 3 }}>
        <TextInput source="client_code" fullWidth />
      </Grid>
      <Grid size={{ xs: 12, md: 3 }}>
        <TextInput source="rfc" fullWidth />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <TextInput source="complete_name" fullWidth />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <TextInput source="email" type="email" fullWidth />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <ReferenceInput source="client_group_id" reference="client_groups" perPage={1000} sort={{ field: "name", order: "ASC" }}>
          <SelectInput optionText="name" emptyText="sia.common.none" emptyValue="null" fullWidth />
        </ReferenceInput>
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <DriveFolderInput />
      </Grid>
      <Grid size={12}>
        <BooleanInput source="is_production_ready" />
      </Grid>
      <Grid size={12}>
        <ArrayInput source="client_product_catalogs">
          <SimpleFormIterator inline disableReordering>
            <ReferenceInput
              source="product_catalog_id"
              reference="products"
              perPage={1000}
              sort={{ field: "name", order: "ASC" }}
            >
              <AutocompleteInput optionText="name" label="resources.clients.fields.product_catalog_id" sx={{ minWidth: 280 }} />
            </ReferenceInput>
            <NumberInput source="annual_support_hours" label="resources.clients.fields.annual_support_hours" min={0} step={1} />
          </SimpleFormIterator>
        </ArrayInput>
      </Grid>
    </Grid>
  );
}
