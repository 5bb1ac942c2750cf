import { zodResolver } from "@hookform/resolvers/zod";
import { Grid } from "@mui/material";
import {
  AutocompleteInput,
  BooleanField,
  BooleanInput,
  NumberField,
  NumberInput,
  Pagination,
  ReferenceInput,
  ReferenceManyField,
  SelectInput,
  SimpleShowLayout,
  TextField,
  TextInput,
  useCanAccess,
  useTranslate,
} from "react-admin";
import { DEFAULT_EMPLOYEE_CODE, WORKING_DAY_HOURS } from "../../core/constants";
import { employeeSchema, employeeUpdateSchema } from "../../core/schemas/employee";
import { businessToday } from "../../core/week";
import { coreColumns } from "../common/columns";
import { SiaDateField } from "../common/DateField";
import { DatePickerInput } from "../common/DatePickerInput";
import { showRowClick } from "../common/links";
import { SiaDatagrid } from "../common/PhoneRows";
import { SearchFilter } from "../common/SearchFilter";
import { SiaCreate, SiaEdit, SiaList, SiaShow } from "../common/screens";

const createResolver = zodResolver(employeeSchema as never);
const updateResolver = zodResolver(employeeUpdateSchema);

const STATUS_CHOICES = [
  { id: "true", name: "sia.filters.active" },
  { id: "false", name: "sia.filters.inactive" },
];
const YES_NO = [
  { id: "true", name: "sia.filters.yes" },
  { id: "false", name: "sia.filters.no" },
];

/** The workspace filter lists workspaces: offered only to whom may read them (not an Operador). */
const workspaceFilter = (
  <ReferenceInput
    key="ws"
    source="workspace_id"
    reference="workspaces"
    perPage={1000}
    sort={{ field: "name", order: "ASC" }}
    alwaysOn
  >
    <SelectInput optionText="name" label="resources.employees.fields.workspace_id" emptyText="sia.filters.all" />
  </ReferenceInput>
);

const filters = [
  <SearchFilter key="q" source="q" alwaysOn placeholder="sia.employees.search" />,
  <SelectInput
    key="status"
    source="is_active"
    label="sia.employees.status"
    choices={STATUS_CHOICES}
    emptyText="sia.filters.all"
    alwaysOn
  />,
  <SelectInput
    key="assignable"
    source="assignable"
    label="resources.employees.fields.assignable"
    choices={YES_NO}
    emptyText="sia.filters.all"
    alwaysOn
  />,
];

/** The employee's columns, shown alike in the list and on its detail. */
const employeeFields = [
  <TextField key="code" source="employee_code" />,
  <TextField key="name" source="name" />,
  <TextField key="email" source="user_email" emptyText="—" />,
  <TextField key="workspace" source="workspace_name" emptyText="—" />,
  <TextField key="position" source="employee_position_name" emptyText="—" />,
  <BooleanField key="active" source="is_active" />,
  <BooleanField key="assignable" source="assignable" />,
  <BooleanField key="rape" source="is_rape" />,
];

export function EmployeeList() {
  const { canAccess: readsWorkspaces } = useCanAccess({ resource: "workspaces", action: "list" });
  return (
    <SiaList filters={readsWorkspaces ? [...filters, workspaceFilter] : filters} sort={{ field: "name", order: "ASC" }}>
      {employeeFields}
    </SiaList>
  );
}

function EmployeeInputs() {
  return (
    <Grid container columnSpacing={2} sx={{ width: "100%" }}>
      <Grid size={{ xs: 12, md: 8 }}>
        <TextInput source="name" fullWidth />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <TextInput source="employee_code" fullWidth />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <ReferenceInput source="user_id" reference="users" perPage={1000} sort={{ field: "name", order: "ASC" }}>
          <AutocompleteInput optionText={(u: { name: string; email: string }) => `${u.name} (${u.email})`} fullWidth />
        </ReferenceInput>
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <ReferenceInput source="workspace_id" reference="workspaces" perPage={1000} sort={{ field: "name", order: "ASC" }}>
          <SelectInput optionText="name" emptyText="sia.common.none" fullWidth />
        </ReferenceInput>
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <ReferenceInput
          source="employee_position_id"
          reference="employee_positions"
          perPage={1000}
          sort={{ field: "name", order: "ASC" }}
        >
          <SelectInput optionText="name" emptyText="sia.common.none" fullWidth />
        </ReferenceInput>
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <DatePickerInput source="start_on" fullWidth />
      </Grid>
      <Grid size={{ xs: 12, md: 4 }}>
        <NumberInput source="daily_hours" min={0} max={24} step={0.25} helperText="sia.employees.daily_hours_help" fullWidth />
      </Grid>
      <Grid size={{ xs: 12, md: 3 }}>
        <BooleanInput source="is_active" />
      </Grid>
      <Grid size={{ xs: 12, md: 3 }}>
        <BooleanInput source="assignable" />
      </Grid>
      <Grid size={{ xs: 12, md: 3 }}>
        <BooleanInput source="is_rape" />
      </Grid>
      <Grid size={{ xs: 12, md: 3 }}>
        <BooleanInput source="is_admin_group" />
      </Grid>
    </Grid>
  );
}

export function EmployeeCreate() {
  return (
    <SiaCreate
      resolver={createResolver}
      defaultValues={{
        employee_code: DEFAULT_EMPLOYEE_CODE,
        is_active: true,
        assignable: false,
        is_rape: false,
        is_admin_group: false,
        start_on: businessToday(),
        daily_hours: WORKING_DAY_HOURS,
      }}
    >
      <EmployeeInputs />
    </SiaCreate>
  );
}

export function EmployeeEdit() {
  return (
    <SiaEdit resolver={updateResolver}>
      <EmployeeInputs />
    </SiaEdit>
  );
}

export function EmployeeShow() {
  const translate = useTranslate();
  return (
    <SiaShow>
      <SimpleShowLayout>
        {employeeFields}
        <SiaDateField source="start_on" emptyText="—" />
        <NumberField source="daily_hours" locales="es-MX" />
        <BooleanField source="is_admin_group" />
        <ReferenceManyField
          label="resources.employees.fields.assignments"
          reference="assignments"
          target="employee_id"
          sort={{ field: "start_on", order: "DESC" }}
          perPage={10}
          pagination={<Pagination rowsPerPageOptions={[10]} />}
        >
          <SiaDatagrid
            bulkActionButtons={false}
            rowClick={showRowClick}
            empty={<span>{translate("sia.employees.no_assignments")}</span>}
          >
            {coreColumns("assignments", [
              <TextField key="client" source="client_name" />,
              <TextField key="product" source="product_name" />,
              <SiaDateField key="start" source="start_on" />,
              <SiaDateField key="end" source="end_on" />,
              <NumberField key="days" source="duration_days" locales="es-MX" />,
            ])}
          </SiaDatagrid>
        </ReferenceManyField>
      </SimpleShowLayout>
    </SiaShow>
  );
}

/** The screens, loaded on demand (src/admin/employees/index.ts declares the resource). */
export const screens = {
  list: EmployeeList,
  create: EmployeeCreate,
  edit: EmployeeEdit,
  show: EmployeeShow,
};
