import { zodResolver } from "@hookform/resolvers/zod";
import { Grid } from "@mui/material";
import { useEffect, useMemo, useRef } from "react";
import {
  AutocompleteInput,
  NumberField,
  ReferenceInput,
  SelectInput,
  SimpleShowLayout,
  TextField,
  useGetList,
  useNotify,
  useRecordContext,
} from "react-admin";
import { useFormContext, useWatch } from "react-hook-form";
import { CLIENT_NOT_CONFIGURED_THROTTLE_MS, MAX_PER_PAGE } from "../../core/constants";
import { messages } from "../../core/messages";
import { assignmentSchema, assignmentUpdateSchema, dateReached } from "../../core/schemas/assignment";
import { SiaDateField } from "../common/DateField";
import { DatePickerInput } from "../common/DatePickerInput";
import { SiaCreate, SiaEdit, SiaList, SiaShow } from "../common/screens";
import { assignmentErrorText, type ClientWithProducts, hasProducts, productChoicesOf, throttled } from "./assignmentRules";

const createResolver = zodResolver(assignmentSchema as never);
const updateResolver = zodResolver(assignmentUpdateSchema);

const filters = [
  <ReferenceInput
    key="employee"
    source="employee_id"
    reference="employees"
    perPage={MAX_PER_PAGE}
    sort={{ field: "name", order: "ASC" }}
    alwaysOn
  >
    <AutocompleteInput optionText="name" label="resources.assignments.fields.employee_id" sx={{ minWidth: 280 }} />
  </ReferenceInput>,
  <DatePickerInput key="from" source="from" label="resources.assignments.fields.from" alwaysOn fullWidth={false} />,
  <DatePickerInput key="to" source="to" label="resources.assignments.fields.to" alwaysOn fullWidth={false} />,
];

/** The assignment's columns, shown alike in the list and on its detail (SPEC §3 displayed fields). */
const assignmentFields = [
  <TextField key="employee" source="employee_name" />,
  <TextField key="client" source="client_name" />,
  <TextField key="product" source="product_name" />,
  <SiaDateField key="start" source="start_on" />,
  <SiaDateField key="end" source="end_on" />,
  <NumberField key="days" source="duration_days" locales="es-MX" />,
];

export function AssignmentList() {
  return (
    <SiaList filters={filters} sort={{ field: "start_on", order: "DESC" }}>
      {assignmentFields}
    </SiaList>
  );
}

/** Clients with their products; the picker offers only those with products configured (SPEC §2). */
function useClients() {
  const { data = [], isPending } = useGetList<ClientWithProducts & { id: number }>("clients", {
    pagination: { page: 1, perPage: MAX_PER_PAGE },
    sort: { field: "name", order: "ASC" },
  });
  return { clients: data, isPending };
}

function ClientAndProduct() {
  const notify = useNotify();
  const { setValue, getValues } = useFormContext();
  const clientId = useWatch({ name: "client_id" });
  const { clients, isPending } = useClients();
  const configured = useMemo(() => clients.filter(hasProducts), [clients]);
  const record = useRecordContext();
  // The record's own client stays choosable on edit, even if its products were removed since.
  const choices = useMemo(() => {
    const current = clients.find((c) => c.id === record?.client_id);
    return current && !hasProducts(current) ? [current, ...configured] : configured;
  }, [clients, configured, record?.client_id]);
  const selected = clients.find((c) => String(c.id) === String(clientId));
  const warn = useRef(
    throttled(() => notify(messages.clientProductsMissing, { type: "warning" }), CLIENT_NOT_CONFIGURED_THROTTLE_MS),
  ).current;

  useEffect(() => {
    if (isPending || !clientId || !selected) return;
    if (!hasProducts(selected)) {
      warn();
      if (getValues("product_catalog_id")) setValue("product_catalog_id", null, { shouldDirty: true });
      return;
    }
    const product = getValues("product_catalog_id");
    if (product && !productChoicesOf(selected).some((p) => String(p.id) === String(product))) {
      setValue("product_catalog_id", null, { shouldDirty: true });
    }
  }, [clientId, selected, isPending, warn, getValues, setValue]);

  return (
    <>
      <Grid size={{ xs: 12, md: 6 }}>
        <AutocompleteInput source="client_id" choices={choices} optionText="name" isPending={isPending} fullWidth />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <SelectInput
          source="product_catalog_id"
          choices={productChoicesOf(selected)}
          disabled={!selected || !hasProducts(selected)}
          emptyText="sia.assignments.choose_product"
          fullWidth
        />
      </Grid>
    </>
  );
}

function AssignmentInputs({ editing = false }: { editing?: boolean }) {
  const record = useRecordContext();
  const startLocked = editing && dateReached(record?.start_on);
  const endLocked = editing && dateReached(record?.end_on);
  return (
    <Grid container columnSpacing={2} sx={{ width: "100%" }}>
      <Grid size={12}>
        <ReferenceInput
          source="employee_id"
          reference="employees"
          perPage={MAX_PER_PAGE}
          sort={{ field: "name", order: "ASC" }}
          filter={{ is_active: true, assignable: true }}
        >
          <AutocompleteInput optionText="name" fullWidth />
        </ReferenceInput>
      </Grid>
      <ClientAndProduct />
      <Grid size={{ xs: 12, md: 6 }}>
        <DatePickerInput
          source="start_on"
          disabled={startLocked}
          helperText={startLocked ? "sia.assignments.start_locked" : undefined}
          fullWidth
        />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <DatePickerInput
          source="end_on"
          disabled={endLocked}
          helperText={endLocked ? "sia.assignments.end_locked" : undefined}
          fullWidth
        />
      </Grid>
    </Grid>
  );
}

/** Assignment errors arrive joined by newlines, with the fallbacks of SPEC §8. */
function useErrorToast() {
  const notify = useNotify();
  return (error: unknown) => notify(assignmentErrorText(error), { type: "error", multiLine: true });
}

/** On edit, a start date already reached is locked and left out of the payload (SPEC §2). */
export function editTransform(data: Record<string, unknown>, options?: { previousData?: Record<string, unknown> }) {
  const out = { ...data };
  const previous = options?.previousData ?? data;
  if (dateReached(previous.start_on as string)) delete out.start_on;
  if (dateReached(previous.end_on as string)) delete out.end_on;
  for (const key of ["employee_name", "client_name", "product_name", "duration_days"]) delete out[key];
  return out;
}

export function AssignmentCreate() {
  return (
    <SiaCreate resolver={createResolver} onError={useErrorToast()}>
      <AssignmentInputs />
    </SiaCreate>
  );
}

export function AssignmentEdit() {
  return (
    <SiaEdit resolver={updateResolver} transform={editTransform} onError={useErrorToast()}>
      <AssignmentInputs editing />
    </SiaEdit>
  );
}

export function AssignmentShow() {
  return (
    <SiaShow>
      <SimpleShowLayout>{assignmentFields}</SimpleShowLayout>
    </SiaShow>
  );
}

/** The screens, loaded on demand (src/admin/assignments/index.ts declares the resource). */
export const screens = {
  list: AssignmentList,
  create: AssignmentCreate,
  edit: AssignmentEdit,
  show: AssignmentShow,
};
