/**
 * A project's invoices at /app/projects/:projectId/invoices (SPEC §2: list, new_invoice,
 * update/:invoiceId, :invoiceId). Rendered as a child route of the projects resource; the API resource
 * is `invoices`, filtered by `project_id`.
 */

import { zodResolver } from "@hookform/resolvers/zod";
import AddIcon from "@mui/icons-material/Add";
import ArrowBackIcon from "@mui/icons-material/ArrowBack";
import { Alert, Box, Button, Card, CardContent, Chip, TextField as MuiTextField, Stack, Typography } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import {
  FunctionField,
  NumberInput,
  type RaRecord,
  ResourceContextProvider,
  SimpleShowLayout,
  TextField,
  TextInput,
  useCanAccess,
  useDataProvider,
  useGetOne,
  useNotify,
  useRecordContext,
  useRedirect,
  useTranslate,
} from "react-admin";
import { Link, Route, Routes, useParams } from "react-router-dom";
import {
  FINAL_INVOICE_STATES,
  INVOICE_PERCENTAGE_DEFAULT,
  invoiceStateLabel,
  MAX_INVOICED_PERCENTAGE,
} from "../../core/invoiceMachine";
import { messages } from "../../core/messages";
import { INVOICE_PATHS } from "../../core/resources";
import { invoiceSchema, invoiceTransitionSchema, invoiceUpdateSchema } from "../../core/schemas/invoice";
import { businessToday } from "../../core/week";
import type { SiaDataProvider } from "../../dataProvider";
import { AdminPageGuard } from "../common/AdminPage";
import { AuditTrail } from "../common/AuditTrail";
import { DatePickerInput, formatDate, SiaDatePicker } from "../common/DatePickerInput";
import { SiaCreate, SiaEdit, SiaList, SiaShow } from "../common/screens";
import { TransitionDialog } from "../common/TransitionDialog";

const createResolver = zodResolver(invoiceSchema as never);
const updateResolver = zodResolver(invoiceUpdateSchema);

const invoicesPath = (projectId: string | number, sub = "") => `/app/projects/${projectId}/invoices${sub ? `/${sub}` : ""}`;
const percent = (n: number | string | null | undefined) =>
  `${Number(n ?? 0).toLocaleString("es-MX", { maximumFractionDigits: 2 })} %`;

function useProjectId() {
  return useParams().projectId as string;
}

/** GET invoices/percentage_to_invoice?project_id → missing_percentage. */
function useMissingPercentage(projectId: string) {
  const dataProvider = useDataProvider<SiaDataProvider>();
  return useQuery({
    queryKey: ["invoices", "percentageToInvoice", projectId],
    queryFn: () => dataProvider.percentageToInvoice(projectId),
  });
}

/** The project the invoices belong to, with the invoiced total and what is missing. */
function ProjectHeader({ projectId, withTotals = false }: { projectId: string; withTotals?: boolean }) {
  const translate = useTranslate();
  const { data: project } = useGetOne("projects", { id: projectId });
  const { data: missing } = useMissingPercentage(projectId);
  return (
    <Card variant="outlined" sx={{ mt: 2 }}>
      <CardContent>
        <Stack direction="row" spacing={2} alignItems="center" useFlexGap sx={{ flexWrap: "wrap" }}>
          <Button component={Link} to={`/app/projects/${projectId}`} startIcon={<ArrowBackIcon />} size="small">
            {translate("resources.invoices.back_to_project")}
          </Button>
          <Typography variant="h6">
            {project ? `${project.project_code} — ${project.name}` : translate("resources.invoices.project")}
          </Typography>
          {withTotals && missing !== undefined && (
            <>
              <Chip
                label={translate("resources.invoices.invoiced_value", {
                  percentage: percent(MAX_INVOICED_PERCENTAGE - missing),
                })}
                color="primary"
                variant="outlined"
                aria-label={translate("resources.invoices.invoiced")}
              />
              <Chip
                label={translate("resources.invoices.missing_value", { percentage: percent(missing) })}
                color={missing > 0 ? "warning" : "success"}
                aria-label={translate("resources.invoices.missing")}
              />
            </>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}

function StateChip({ record }: { record: RaRecord }) {
  const state = String(record.state ?? "");
  const color = state === "resuelto" ? "success" : state === "cancelada" ? "default" : state === "enviada" ? "info" : "warning";
  return <Chip size="small" label={record.state_label ?? invoiceStateLabel(state)} color={color} />;
}

/** Invoiced at 100 % (cancelled invoices aside): no new invoice fits. */
const fullyInvoiced = (missing: number | undefined) => missing !== undefined && missing <= 0;

export function InvoiceList() {
  const translate = useTranslate();
  const projectId = useProjectId();
  const { canAccess } = useCanAccess({ resource: "invoices", action: "create" });
  const { data: missing } = useMissingPercentage(projectId);
  const canCreate = canAccess && missing !== undefined && !fullyInvoiced(missing);
  return (
    <>
      <ProjectHeader projectId={projectId} withTotals />
      <SiaList
        resource="invoices"
        filter={{ project_id: projectId }}
        storeKey={false}
        disableSyncWithLocation
        sort={{ field: "id", order: "ASC" }}
        title="resources.invoices.list_title"
        creatable={false}
        actions={
          <>
            {canCreate && (
              <Button component={Link} to={invoicesPath(projectId, "new_invoice")} startIcon={<AddIcon />} size="small">
                {translate("resources.invoices.new")}
              </Button>
            )}
            {canAccess && fullyInvoiced(missing) && (
              <Typography variant="body2" color="text.secondary" sx={{ alignSelf: "center" }}>
                {translate("resources.invoices.fully_invoiced")}
              </Typography>
            )}
          </>
        }
        empty={false}
        rowClick={(id) => invoicesPath(projectId, String(id))}
        emptyRows={<Box sx={{ p: 2 }}>{translate("resources.invoices.no_rows")}</Box>}
      >
        <TextField source="id" />
        <FunctionField source="percentage_value" render={(r: RaRecord) => percent(r.percentage_value)} />
        <FunctionField source="date_of_invoice" render={(r: RaRecord) => formatDate(r.date_of_invoice)} />
        <TextField source="folio" emptyText="—" />
        <FunctionField source="state" render={(r: RaRecord) => <StateChip record={r} />} />
        <TextField source="audit_comment" emptyText="—" />
      </SiaList>
    </>
  );
}

function PercentageHelp({ projectId }: { projectId: string }) {
  const translate = useTranslate();
  const { data: missing } = useMissingPercentage(projectId);
  return missing === undefined ? null : (
    <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
      {translate("resources.invoices.missing_value", { percentage: percent(missing) })}
    </Typography>
  );
}

const COMPUTED = [
  "project_name",
  "project_code",
  "state",
  "state_label",
  "folio_editable",
  "editable",
  "permitted_events",
  "project_id",
];
const editTransform = (data: Record<string, unknown>) => {
  const out = { ...data };
  for (const key of COMPUTED) delete out[key];
  return out;
};

export function InvoiceCreate() {
  const projectId = useProjectId();
  const { data: missing, isPending } = useMissingPercentage(projectId);
  if (isPending) return null;
  if (fullyInvoiced(missing)) {
    return (
      <>
        <ProjectHeader projectId={projectId} />
        <Alert severity="info" sx={{ mt: 2 }}>
          {messages.projectFullyInvoiced}
        </Alert>
      </>
    );
  }
  const initial =
    missing !== undefined && missing > 0 ? Math.min(INVOICE_PERCENTAGE_DEFAULT, missing) : INVOICE_PERCENTAGE_DEFAULT;
  return (
    <>
      <ProjectHeader projectId={projectId} />
      <SiaCreate
        resource="invoices"
        title="resources.invoices.new"
        then={() => invoicesPath(projectId)}
        resolver={createResolver}
        defaultValues={{ project_id: Number(projectId), percentage_value: initial }}
      >
        <PercentageHelp projectId={projectId} />
        <NumberInput source="percentage_value" helperText="resources.invoices.help.percentage_value" />
        <DatePickerInput source="date_of_invoice" />
        <TextInput source="audit_comment" multiline fullWidth />
      </SiaCreate>
    </>
  );
}

const isFinalInvoice = (record: RaRecord | undefined) => FINAL_INVOICE_STATES.includes(record?.state);

function FolioInput() {
  const record = useRecordContext();
  const editable = Boolean(record?.folio_editable);
  return (
    <TextInput
      source="folio"
      disabled={!editable}
      helperText={
        editable
          ? "resources.invoices.help.folio_once"
          : record?.state === "resuelto"
            ? "resources.invoices.help.folio_resolved"
            : "resources.invoices.help.folio_only_resolved"
      }
    />
  );
}

/** Percentage and date of a resolved invoice stay as they were: it only takes its missing folio. */
function AmountInputs() {
  const record = useRecordContext();
  const locked = isFinalInvoice(record);
  const help = locked ? "resources.invoices.help.resolved_locked" : " ";
  return (
    <>
      <NumberInput source="percentage_value" disabled={locked} helperText={help} />
      <DatePickerInput source="date_of_invoice" disabled={locked} />
    </>
  );
}

/** A final invoice with nothing left to capture has no form: back to its detail, saying why. */
function ReadOnlyInvoiceGuard({ projectId }: { projectId: string }) {
  const record = useRecordContext();
  const notify = useNotify();
  const redirect = useRedirect();
  const readOnly = Boolean(record && record.editable === false);
  useEffect(() => {
    if (!record || !readOnly) return;
    notify(record.state === "cancelada" ? messages.invoiceCancelledLocked : messages.invoiceResolvedLocked, {
      type: "warning",
    });
    redirect(invoicesPath(projectId, String(record.id)));
  }, [readOnly, record, notify, redirect, projectId]);
  return null;
}

export function InvoiceEdit() {
  const projectId = useProjectId();
  const { invoiceId } = useParams();
  return (
    <>
      <ProjectHeader projectId={projectId} />
      <SiaEdit
        resource="invoices"
        id={invoiceId}
        title="resources.invoices.edit_title"
        transform={editTransform}
        then={() => invoicesPath(projectId, String(invoiceId))}
        resolver={updateResolver}
        // Final invoices are never deleted (the server refuses too).
        deletable={(record) => !isFinalInvoice(record)}
        deleteRedirect={invoicesPath(projectId)}
      >
        <ReadOnlyInvoiceGuard projectId={projectId} />
        <PercentageHelp projectId={projectId} />
        <AmountInputs />
        <FolioInput />
        <TextInput source="audit_comment" multiline fullWidth />
      </SiaEdit>
    </>
  );
}

interface InvoiceEvent {
  name: string;
  label: string;
  to: string;
}

/**
 * What the dialog's date does to the invoice's «Fecha de facturación», said before saving: the date it
 * shows is the invoice's own, so a state change keeps it unless the user changes it here.
 */
function billingDateHelp(current: string | null, picked: string | null): { key: string; args: Record<string, string> } {
  // Left empty, the server keeps the invoice's date, or dates it today when it has none.
  const chosen = picked ?? current ?? businessToday();
  if (chosen === current) return { key: "resources.invoices.transition.date_kept", args: {} };
  if (!current) return { key: "resources.invoices.transition.date_set", args: { date: formatDate(chosen) } };
  return { key: "resources.invoices.transition.date_changes", args: { from: formatDate(current), to: formatDate(chosen) } };
}

/** State change of an invoice: comment (required), its billing date and, when resolving, an optional folio. */
function InvoiceTransitionDialog({ invoice, event, onClose }: { invoice: RaRecord; event: InvoiceEvent; onClose: () => void }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<SiaDataProvider>();
  const current = (invoice.date_of_invoice as string | null | undefined) ?? null;
  // The invoice's own billing date, not today: a state change is not a new billing date.
  const [date, setDate] = useState<string | null>(current ?? businessToday());
  const help = billingDateHelp(current, date);
  const [folio, setFolio] = useState("");
  const withFolio = event.to === "resuelto";
  const input = (comment: string) => ({
    event: event.name,
    audit_comment: comment,
    date,
    ...(withFolio && folio ? { folio } : {}),
  });
  return (
    <TransitionDialog
      title={event.label}
      available={((invoice.permitted_events ?? []) as InvoiceEvent[]).some((permitted) => permitted.name === event.name)}
      version={invoice.lock_version}
      validate={(comment) => invoiceTransitionSchema.safeParse(input(comment))}
      send={async (comment) => {
        await dataProvider.transitionInvoice(invoice.id, input(comment), invoice.lock_version as number | undefined);
        return translate("resources.invoices.transition.done", { state: invoiceStateLabel(event.to) });
      }}
      onClose={onClose}
    >
      <SiaDatePicker
        label={translate("resources.invoices.transition.date")}
        value={date}
        onChange={setDate}
        helperText={translate(help.key, help.args)}
      />
      {withFolio && (
        <MuiTextField
          label={translate("resources.invoices.fields.folio")}
          value={folio}
          onChange={(e) => setFolio(e.target.value)}
          fullWidth
          margin="dense"
        />
      )}
    </TransitionDialog>
  );
}

function InvoiceEvents() {
  const translate = useTranslate();
  const invoice = useRecordContext();
  const [open, setOpen] = useState<InvoiceEvent | null>(null);
  const events = (invoice?.permitted_events ?? []) as InvoiceEvent[];
  if (!invoice) return null;
  // The dialog is not inside the card: when another user resolves or cancels the invoice meanwhile, no
  // events are left and the card goes, but the open dialog stays (the same element, with what was typed)
  // to say so until it is closed.
  return (
    <>
      {events.length > 0 && (
        <Card variant="outlined" sx={{ mt: 2 }}>
          <CardContent>
            <Typography variant="h6" gutterBottom>
              {translate("resources.invoices.change_state")}
            </Typography>
            <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: "wrap" }}>
              {events.map((event) => (
                <Button key={event.name} variant="contained" size="small" onClick={() => setOpen(event)}>
                  {event.label}
                </Button>
              ))}
            </Stack>
          </CardContent>
        </Card>
      )}
      {open && <InvoiceTransitionDialog invoice={invoice} event={open} onClose={() => setOpen(null)} />}
    </>
  );
}

function InvoiceDetails() {
  const record = useRecordContext();
  if (!record) return null;
  return (
    <Box>
      <SimpleShowLayout>
        <TextField source="id" />
        <TextField source="project_name" />
        <FunctionField source="percentage_value" render={(r: RaRecord) => percent(r.percentage_value)} />
        <FunctionField source="date_of_invoice" render={(r: RaRecord) => formatDate(r.date_of_invoice)} />
        <TextField source="folio" emptyText="—" />
        <FunctionField source="state" render={(r: RaRecord) => <StateChip record={r} />} />
        <TextField source="audit_comment" emptyText="—" />
      </SimpleShowLayout>
      <InvoiceEvents />
      <AuditTrail
        resource="invoices"
        id={record.id}
        valueLabel={(field, value) => (field === "state" && value ? invoiceStateLabel(value) : value)}
      />
    </Box>
  );
}

export function InvoiceShow() {
  const translate = useTranslate();
  const projectId = useProjectId();
  const { invoiceId } = useParams();
  return (
    <>
      <ProjectHeader projectId={projectId} />
      <SiaShow
        resource="invoices"
        id={invoiceId}
        title="resources.invoices.show_title"
        editable={(record) => record.editable !== false}
        editPath={(record) => invoicesPath(projectId, `update/${record.id}`)}
        actions={
          <Button component={Link} to={invoicesPath(projectId)} size="small">
            {translate("resources.invoices.list_title")}
          </Button>
        }
      >
        <InvoiceDetails />
      </SiaShow>
    </>
  );
}

const [LIST, CREATE, EDIT, SHOW] = INVOICE_PATHS;

/**
 * The routes under /app/projects/:projectId/invoices/*. Each asks the permission matrix first: a role
 * without invoices goes to «Acceso denegado» instead of a screen waiting on calls the server refuses.
 */
export function ProjectInvoicesRoutes() {
  const list = (
    <AdminPageGuard resource="invoices" action="list">
      <InvoiceList />
    </AdminPageGuard>
  );
  return (
    <ResourceContextProvider value="invoices">
      <Routes>
        <Route index element={list} />
        {LIST !== "" && <Route path={LIST} element={list} />}
        <Route
          path={CREATE}
          element={
            <AdminPageGuard resource="invoices" action="create">
              <InvoiceCreate />
            </AdminPageGuard>
          }
        />
        <Route
          path={EDIT}
          element={
            <AdminPageGuard resource="invoices" action="update">
              <InvoiceEdit />
            </AdminPageGuard>
          }
        />
        <Route
          path={SHOW}
          element={
            <AdminPageGuard resource="invoices" action="show">
              <InvoiceShow />
            </AdminPageGuard>
          }
        />
      </Routes>
    </ResourceContextProvider>
  );
}
