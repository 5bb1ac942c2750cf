import { Grid } from "@mui/material";
import { useEffect } from "react";
import {
  AutocompleteInput,
  BooleanInput,
  CheckboxGroupInput,
  NumberInput,
  ReferenceInput,
  SelectInput,
  TextInput,
  useGetOne,
} from "react-admin";
import { useFormContext, useWatch } from "react-hook-form";
import { MESA_ELECTRONICA_PRODUCT_NAME } from "../../core/constants";
import { DatePickerInput } from "../common/DatePickerInput";
import { environmentChoices, licenseModuleChoices, licenseTypeChoices } from "./licenseChoices";

/** SPEC §5: the mesa electrónica key exists only for Siglo CD; on any other product it is unticked and hidden. */
function MesaElectronicaKey() {
  const productId = useWatch({ name: "product_catalog_id" });
  const { setValue, getValues } = useFormContext();
  const { data: product } = useGetOne("products", { id: productId }, { enabled: Boolean(productId) });
  const known = !productId || product?.id === productId;
  const isSigloCd = Boolean(productId) && product?.name === MESA_ELECTRONICA_PRODUCT_NAME;
  useEffect(() => {
    if (known && !isSigloCd && getValues("has_mesa_electronica_license_key")) {
      setValue("has_mesa_electronica_license_key", false, { shouldDirty: true });
    }
  }, [known, isSigloCd, getValues, setValue]);
  if (!isSigloCd) return null;
  return <BooleanInput source="has_mesa_electronica_license_key" />;
}

export function AppLicenseInputs() {
  return (
    <Grid container columnSpacing={2} sx={{ width: "100%" }}>
      <Grid size={{ xs: 12, md: 6 }}>
        <ReferenceInput source="client_id" reference="clients" perPage={1000} sort={{ field: "name", order: "ASC" }}>
          <AutocompleteInput optionText="name" fullWidth />
        </ReferenceInput>
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <ReferenceInput source="product_catalog_id" reference="products" perPage={1000} sort={{ field: "name", order: "ASC" }}>
          <AutocompleteInput optionText="name" fullWidth />
        </ReferenceInput>
      </Grid>
      <Grid size={{ xs: 12, md: 8 }}>
        <TextInput source="entity_name" fullWidth />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <TextInput source="entity_rfc" fullWidth />
      </Grid>
      <Grid size={{ xs: 12, md: 3 }}>
        <SelectInput source="environment" choices={environmentChoices} fullWidth />
      </Grid>
      <Grid size={{ xs: 12, md: 3 }}>
        <SelectInput source="license_type" choices={licenseTypeChoices} fullWidth />
      </Grid>
      <Grid size={{ xs: 12, md: 3 }}>
        <NumberInput source="num_licenses" min={1} step={1} fullWidth />
      </Grid>
      <Grid size={{ xs: 12, md: 3 }}>
        <DatePickerInput source="license_valid_until" fullWidth />
      </Grid>
      <Grid size={12}>
        <CheckboxGroupInput source="modules" choices={licenseModuleChoices} />
      </Grid>
      <Grid size={12}>
        <MesaElectronicaKey />
      </Grid>
      <Grid size={12}>
        <BooleanInput source="is_active" />
      </Grid>
    </Grid>
  );
}
