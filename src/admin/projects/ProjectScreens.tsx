import { zodResolver } from "@hookform/resolvers/zod";
import ReceiptLongIcon from "@mui/icons-material/ReceiptLong";
import { Box, Button, Chip, Grid, Stack } from "@mui/material";
import { useEffect } from "react";
import {
  AutocompleteInput,
  BooleanField,
  BooleanInput,
  FunctionField,
  ReferenceField,
  ReferenceInput,
  SearchInput,
  SelectInput,
  SimpleShowLayout,
  TextField,
  TextInput,
  useCanAccess,
  useDataProvider,
  useRecordContext,
  useTranslate,
} from "react-admin";
import { useFormContext } from "react-hook-form";
import { Link } from "react-router-dom";
import { MAX_PER_PAGE } from "../../core/constants";
import { screenPath } from "../../core/resources";
import { projectSchema, projectUpdateSchema } from "../../core/schemas/project";
import { ARCHIVED_PROJECT_STATES, PROJECT_STATUS_FILTERS, type ProjectState } from "../../core/states";
import type { SiaDataProvider } from "../../dataProvider";
import { BoardPanel } from "../board/BoardPanel";
import { AuditTrail } from "../common/AuditTrail";
import { DatePickerInput, formatDate } from "../common/DatePickerInput";
import { DriveCheckButton } from "../common/DriveCheckButton";
import { DriveFolderInput } from "../common/DriveFolderInput";
import { DriveFolderField } from "../common/DriveFolderLink";
import { SiaCreate, SiaEdit, SiaList, SiaShow } from "../common/screens";
import { ProjectHoursPanel } from "../dashboards/panels";
import { EstimatedHoursPanel, ProjectActionsBar, ProjectCommentBox, StageHistory, stateValueLabel } from "./ProjectPanels";

const createResolver = zodResolver(projectSchema as never);
const updateResolver = zodResolver(projectUpdateSchema);

/** A project's state as a chip: archived states grey, current ones coloured. */
export function StateChip({ state, label }: { state?: string; label?: string }) {
  if (!state) return null;
  const archived = ARCHIVED_PROJECT_STATES.includes(state as ProjectState);
  return (
    <Chip
      size="small"
      label={label ?? state}
      color={archived ? "default" : "primary"}
      variant={archived ? "outlined" : "filled"}
    />
  );
}

/** The project type with its colour (project_types.color_tag). */
function ProjectTypeChip() {
  const type = useRecordContext<{ name: string; color_tag?: string | null }>();
  if (!type) return null;
  const color = type.color_tag ?? undefined;
  return (
    <Chip
      size="small"
      label={type.name}
      variant="outlined"
      sx={color ? { borderColor: color, "& .MuiChip-label": { pl: 1 } } : undefined}
      icon={
        color ? (
          <Box component="span" sx={{ width: 10, height: 10, borderRadius: "50%", bgcolor: color, ml: "8px !important" }} />
        ) : undefined
      }
    />
  );
}

const statusChoices = Object.entries(PROJECT_STATUS_FILTERS).map(([id, name]) => ({ id, name }));

const projectFilters = [
  <SelectInput
    key="status"
    source="by_status"
    label="resources.projects.fields.by_status"
    choices={statusChoices}
    alwaysOn
    emptyText="sia.filters.all"
    emptyValue=""
  />,
  <ReferenceInput
    key="type"
    source="by_project_type"
    reference="project_types"
    perPage={MAX_PER_PAGE}
    sort={{ field: "name", order: "ASC" }}
    alwaysOn
  >
    <SelectInput optionText="name" label="resources.projects.fields.by_project_type" emptyText="sia.filters.all" />
  </ReferenceInput>,
  <ReferenceInput
    key="product"
    source="by_product"
    reference="products"
    perPage={MAX_PER_PAGE}
    sort={{ field: "name", order: "ASC" }}
    alwaysOn
  >
    <SelectInput optionText="name" label="resources.projects.fields.by_product" emptyText="sia.filters.all" />
  </ReferenceInput>,
  <ReferenceInput
    key="employee"
    source="involved_projects_by_employee"
    reference="employees"
    perPage={MAX_PER_PAGE}
    sort={{ field: "name", order: "ASC" }}
    alwaysOn
  >
    <AutocompleteInput optionText="name" label="resources.projects.fields.involved_projects_by_employee" sx={{ minWidth: 240 }} />
  </ReferenceInput>,
];

/**
 * Projects list. Filters live in react-admin's store under the default key (`projects.listParams`), so
 * leaving the list and coming back restores them (SPEC §2: filters kept for the session).
 */
export function ProjectList() {
  const translate = useTranslate();
  // The search's placeholder is shown as given (react-admin does not translate it).
  const filters = [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate("resources.projects.search")} />,
    ...projectFilters,
  ];
  return (
    <SiaList
      filters={filters}
      sort={{ field: "project_code", order: "DESC" }}
      csv
      csvLabel={translate("resources.projects.download_csv")}
    >
      <TextField source="project_code" />
      <TextField source="name" />
      <TextField source="client_name" />
      <ReferenceField
        source="project_type_catalog_id"
        reference="project_types"
        link={false}
        sortBy="project_type_name"
        emptyText="—"
      >
        <ProjectTypeChip />
      </ReferenceField>
      <TextField source="product_name" emptyText="—" />
      <FunctionField
        source="state"
        render={(r: { state?: string; aasm_statuses_with_i18n?: string }) => (
          <StateChip state={r.state} label={r.aasm_statuses_with_i18n} />
        )}
      />
      <TextField source="pm_name" emptyText="—" />
      <FunctionField source="eta" render={(r: { eta?: string | null }) => formatDate(r.eta)} />
      <FunctionField
        source="unread_messages"
        render={(r: { unread_messages?: number }) =>
          r.unread_messages ? <Chip size="small" color="error" label={r.unread_messages} data-testid="project-unread" /> : ""
        }
      />
    </SiaList>
  );
}

/** On a new project, the code the server will give it next (GET projects/get_next_project_code). */
function NextProjectCode() {
  const dataProvider = useDataProvider<SiaDataProvider>();
  const { getValues, setValue } = useFormContext();
  useEffect(() => {
    let active = true;
    dataProvider
      .nextProjectCode()
      .then((code) => {
        if (active && (getValues("project_code") ?? "0") === "0") setValue("project_code", code, { shouldDirty: true });
      })
      .catch(() => undefined);
    return () => {
      active = false;
    };
  }, [dataProvider, getValues, setValue]);
  return null;
}

function ProjectInputs({ creating = false }: { creating?: boolean }) {
  const translate = useTranslate();
  return (
    <Grid container columnSpacing={2} sx={{ width: "100%" }}>
      {creating && <NextProjectCode />}
      <Grid size={{ xs: 12, md: 3 }}>
        <TextInput source="project_code" fullWidth />
      </Grid>
      <Grid size={{ xs: 12, md: 9 }}>
        <TextInput source="name" isRequired fullWidth />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <ReferenceInput source="client_id" reference="clients" perPage={MAX_PER_PAGE} sort={{ field: "name", order: "ASC" }}>
          <AutocompleteInput optionText="name" isRequired fullWidth />
        </ReferenceInput>
      </Grid>
      <Grid size={{ xs: 12, md: 3 }}>
        <ReferenceInput
          source="project_type_catalog_id"
          reference="project_types"
          perPage={MAX_PER_PAGE}
          sort={{ field: "name", order: "ASC" }}
        >
          <SelectInput optionText="name" isRequired fullWidth />
        </ReferenceInput>
      </Grid>
      <Grid size={{ xs: 12, md: 3 }}>
        <ReferenceInput
          source="product_catalog_id"
          reference="products"
          perPage={MAX_PER_PAGE}
          sort={{ field: "name", order: "ASC" }}
        >
          <AutocompleteInput optionText="name" isRequired fullWidth />
        </ReferenceInput>
      </Grid>
      <Grid size={{ xs: 12, md: 3 }}>
        <DatePickerInput source="project_date" isRequired />
      </Grid>
      <Grid size={{ xs: 12, md: 3 }}>
        <DatePickerInput source="eta" />
      </Grid>
      <Grid size={{ xs: 12, md: 3 }}>
        <ReferenceInput
          source="pm_id"
          reference="employees"
          perPage={MAX_PER_PAGE}
          sort={{ field: "name", order: "ASC" }}
          filter={{ by_pm: true }}
        >
          <AutocompleteInput optionText="name" fullWidth />
        </ReferenceInput>
      </Grid>
      <Grid size={{ xs: 12, md: 3 }}>
        <ReferenceInput
          source="rape_id"
          reference="employees"
          perPage={MAX_PER_PAGE}
          sort={{ field: "name", order: "ASC" }}
          filter={{ by_rape: true, is_active: true }}
        >
          <AutocompleteInput optionText="name" fullWidth />
        </ReferenceInput>
      </Grid>
      <Grid size={{ xs: 12, md: 3 }}>
        <TextInput source="color_tag" placeholder="#1E88E5" helperText="resources.projects.help.color_tag" fullWidth />
      </Grid>
      <Grid size={{ xs: 12, md: 9 }}>
        <DriveFolderInput helperText={translate("resources.projects.help.drive_root")} />
      </Grid>
      <Grid size={12}>
        <BooleanInput source="estimate_hours_needed" />
      </Grid>
      {!creating && (
        <Grid size={12}>
          <TextInput source="audit_comment" multiline fullWidth helperText="resources.projects.help.audit_comment" />
        </Grid>
      )}
    </Grid>
  );
}

const COMPUTED = [
  "client_name",
  "product_name",
  "project_type_name",
  "pm_name",
  "rape_name",
  "invoiced_percentage",
  "aasm_statuses_with_i18n",
  "invoice_action_label",
  "permitted_events",
  "state",
  "invoice_action",
  "state_changed_at",
];
const transform = (data: Record<string, unknown>) => {
  const out = { ...data };
  for (const key of COMPUTED) delete out[key];
  return out;
};

export function ProjectCreate() {
  return (
    <SiaCreate
      transform={transform}
      resolver={createResolver}
      defaultValues={{ project_code: "0", estimate_hours_needed: false }}
    >
      <ProjectInputs creating />
    </SiaCreate>
  );
}

export function ProjectEdit() {
  return (
    <SiaEdit transform={transform} resolver={updateResolver} deleteRedirect={screenPath("projects", "list")}>
      <ProjectInputs />
    </SiaEdit>
  );
}

function InvoicesLink() {
  const translate = useTranslate();
  const record = useRecordContext();
  const { canAccess } = useCanAccess({ resource: "invoices", action: "list" });
  if (!record || !canAccess) return null;
  return (
    <Button component={Link} to={`/app/projects/${record.id}/invoices`} startIcon={<ReceiptLongIcon />} size="small">
      {translate("resources.projects.invoices")}
    </Button>
  );
}

function ProjectDetails() {
  const record = useRecordContext();
  // The project's billing is for who reads invoices (permission matrix: project_invoicing); the server omits it otherwise.
  const { canAccess: seesBilling } = useCanAccess({ resource: "project_invoicing", action: "show" });
  if (!record) return null;
  return (
    <Box>
      <SimpleShowLayout>
        <TextField source="project_code" />
        <TextField source="name" />
        <TextField source="client_name" />
        <TextField source="project_type_name" emptyText="—" />
        <TextField source="product_name" emptyText="—" />
        <FunctionField
          source="state"
          render={(r: { state?: string; aasm_statuses_with_i18n?: string }) => (
            <StateChip state={r.state} label={r.aasm_statuses_with_i18n} />
          )}
        />
        <FunctionField source="project_date" render={(r: { project_date?: string | null }) => formatDate(r.project_date)} />
        <FunctionField source="eta" render={(r: { eta?: string | null }) => formatDate(r.eta)} />
        <TextField source="pm_name" emptyText="—" />
        <TextField source="rape_name" emptyText="—" />
        {seesBilling && (
          <FunctionField
            source="invoiced_percentage"
            render={(r: { invoiced_percentage?: number }) => `${Number(r.invoiced_percentage ?? 0).toLocaleString("es-MX")} %`}
          />
        )}
        {seesBilling && <TextField source="invoice_action_label" emptyText="resources.projects.no_invoice_action" />}
        <FunctionField
          source="color_tag"
          render={(r: { color_tag?: string | null }) =>
            r.color_tag ? (
              <Stack direction="row" spacing={1} alignItems="center">
                <Box sx={{ width: 16, height: 16, borderRadius: 1, bgcolor: r.color_tag }} />
                <span>{r.color_tag}</span>
              </Stack>
            ) : (
              "—"
            )
          }
        />
        <BooleanField source="estimate_hours_needed" />
        <DriveFolderField source="drive_root_url" />
        <TextField source="audit_comment" emptyText="—" />
      </SimpleShowLayout>
      <ProjectActionsBar />
      <BoardPanel />
      <StageHistory />
      <EstimatedHoursPanel />
      <ProjectHoursPanel />
      <ProjectCommentBox />
      <AuditTrail resource="projects" id={record.id} valueLabel={stateValueLabel} />
    </Box>
  );
}

export function ProjectShow() {
  return (
    <SiaShow
      actions={
        <>
          <InvoicesLink />
          <DriveCheckButton resource="projects" />
        </>
      }
    >
      <ProjectDetails />
    </SiaShow>
  );
}

/** The screens, loaded on demand (src/admin/projects/index.ts declares the resource). */
export const screens = {
  list: ProjectList,
  create: ProjectCreate,
  edit: ProjectEdit,
  show: ProjectShow,
};
