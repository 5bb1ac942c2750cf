/**
 * A project's invoices at /app/projects/:projectId/invoices (SPEC §2: list, new_invoice,
 * update/:invoiceId, :invoiceId). Rendered as a child route of the projects resource; the API resource
 * is `invoices`, filtered by `project_id`.
 */

import { zodResolver } from "@hookform/resolvers/zod";
import AddIcon from "@mui/icons-material/Add";
import ArrowBackIcon from "@mui/icons-material/ArrowBack";
import EditIcon from "@mui/icons-material/Edit";
import { Alert, Box, Button, Card, CardContent, Chip, TextField as MuiTextField, Stack, Typography } from "@mui/material";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import {
  Create,
  Datagrid,
  DeleteButton,
  Edit,
  FunctionField,
  List,
  NumberInput,
  type RaRecord,
  ResourceContextProvider,
  SaveButton,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextField,
  TextInput,
  Toolbar,
  TopToolbar,
  useCanAccess,
  useDataProvider,
  useGetOne,
  useNotify,
  useRecordContext,
  useRedirect,
  useRefresh,
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
import { AuditTrail } from "../common/AuditTrail";
import { DatePickerInput, formatDate, SiaDatePicker } from "../common/DatePickerInput";
import { recordError } from "../common/RecordError";
import { SiaPagination } from "../common/SiaPagination";
import { StaleVersionNotice, useStaleVersion } from "../common/StaleVersion";
import { TransitionDialog } from "../common/TransitionDialog";

const createResolver = zodResolver(invoiceSchema);
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
  const { data: project } = useGetOne("projects", { id: projectId });
  const { data: missing } = useMissingPercentage(projectId);
  return (
    <Card variant="outlined" sx={{ mt: 2 }}>
      <CardContent>
        <Stack direction="row" spacing={2} alignItems="center" useFlexGap sx={{ flexWrap: "wrap" }}>
          <Button component={Link} to={`/app/projects/${projectId}`} startIcon={<ArrowBackIcon />} size="small">
            Volver al proyecto
          </Button>
          <Typography variant="h6">{project ? `${project.project_code} — ${project.name}` : "Proyecto"}</Typography>
          {withTotals && missing !== undefined && (
            <>
              <Chip
                label={`Facturado: ${percent(MAX_INVOICED_PERCENTAGE - missing)}`}
                color="primary"
                variant="outlined"
                aria-label="Facturado"
              />
              <Chip
                label={`Falta por facturar: ${percent(missing)}`}
                color={missing > 0 ? "warning" : "success"}
                aria-label="Falta por facturar"
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
  const projectId = useProjectId();
  const { canAccess } = useCanAccess({ resource: "invoices", action: "create" });
  const { data: missing } = useMissingPercentage(projectId);
  const canCreate = canAccess && missing !== undefined && !fullyInvoiced(missing);
  return (
    <>
      <ProjectHeader projectId={projectId} withTotals />
      <List
        resource="invoices"
        filter={{ project_id: projectId }}
        storeKey={false}
        disableSyncWithLocation
        perPage={10}
        sort={{ field: "id", order: "ASC" }}
        pagination={<SiaPagination />}
        title="Facturas del proyecto"
        actions={
          <TopToolbar>
            {canCreate && (
              <Button component={Link} to={invoicesPath(projectId, "new_invoice")} startIcon={<AddIcon />} size="small">
                Nueva factura
              </Button>
            )}
            {canAccess && fullyInvoiced(missing) && (
              <Typography variant="body2" color="text.secondary" sx={{ alignSelf: "center" }}>
                Proyecto facturado al 100 %
              </Typography>
            )}
          </TopToolbar>
        }
        empty={false}
      >
        <Datagrid
          rowClick={(id) => invoicesPath(projectId, String(id))}
          bulkActionButtons={false}
          empty={<Box sx={{ p: 2 }}>El proyecto no tiene facturas</Box>}
        >
          <TextField source="id" />
          <FunctionField source="percentage_value" render={(r: RaRecord) => percent(r.percentage_value)} />
          <FunctionField source="date_of_invoice" render={(r: RaRecord) => formatDate(r.date_of_invoice)} />
          <TextField source="folio" emptyText="—" />
          <FunctionField source="state" render={(r: RaRecord) => <StateChip record={r} />} />
          <TextField source="audit_comment" emptyText="—" />
        </Datagrid>
      </List>
    </>
  );
}

function PercentageHelp({ projectId }: { projectId: string }) {
  const { data: missing } = useMissingPercentage(projectId);
  return missing === undefined ? null : (
    <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
      Falta por facturar: {percent(missing)}
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
  const notify = useNotify();
  const redirect = useRedirect();
  const refresh = useRefresh();
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
      <Create
        resource="invoices"
        title="Nueva factura"
        mutationOptions={{
          onSuccess: () => {
            notify(messages.saved, { type: "success" });
            refresh();
            redirect(invoicesPath(projectId));
          },
        }}
      >
        <SimpleForm resolver={createResolver} defaultValues={{ project_id: Number(projectId), percentage_value: initial }}>
          <PercentageHelp projectId={projectId} />
          <NumberInput source="percentage_value" helperText="Porcentaje del monto del proyecto" />
          <DatePickerInput source="date_of_invoice" />
          <TextInput source="audit_comment" multiline fullWidth />
        </SimpleForm>
      </Create>
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
          ? "Se captura una sola vez: después ya no se puede cambiar"
          : record?.state === "resuelto"
            ? "La factura resuelta ya tiene folio"
            : "El folio sólo se puede capturar cuando la factura está en Resuelto"
      }
    />
  );
}

/** Percentage and date of a resolved invoice stay as they were: it only takes its missing folio. */
function AmountInputs() {
  const record = useRecordContext();
  const locked = isFinalInvoice(record);
  const help = locked ? "La factura resuelta ya no cambia" : " ";
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

/** Final invoices are never deleted (the server refuses too). */
function InvoiceDeleteButton({ projectId }: { projectId: string }) {
  const record = useRecordContext();
  if (!record || isFinalInvoice(record)) return null;
  return <DeleteButton mutationMode="pessimistic" redirect={invoicesPath(projectId)} />;
}

export function InvoiceEdit() {
  const projectId = useProjectId();
  const { invoiceId } = useParams();
  const notify = useNotify();
  const redirect = useRedirect();
  const stale = useStaleVersion(undefined, "invoices");
  return (
    <>
      <ProjectHeader projectId={projectId} />
      <Edit
        error={recordError}
        resource="invoices"
        id={invoiceId}
        title="Editar factura"
        mutationMode="pessimistic"
        transform={stale.withVersion(editTransform)}
        redirect={false}
        mutationOptions={{
          onSuccess: () => {
            notify(messages.saved, { type: "success" });
            redirect(invoicesPath(projectId, String(invoiceId)));
          },
          onError: stale.onError,
        }}
      >
        <SimpleForm
          resolver={updateResolver}
          toolbar={
            <Toolbar sx={{ justifyContent: "space-between" }}>
              <SaveButton />
              <InvoiceDeleteButton projectId={projectId} />
            </Toolbar>
          }
        >
          <ReadOnlyInvoiceGuard projectId={projectId} />
          <StaleVersionNotice state={stale.state} />
          <PercentageHelp projectId={projectId} />
          <AmountInputs />
          <FolioInput />
          <TextInput source="audit_comment" multiline fullWidth />
        </SimpleForm>
      </Edit>
    </>
  );
}

interface InvoiceEvent {
  name: string;
  label: string;
  to: string;
}

/** State change of an invoice: comment (required), date and, when resolving, an optional folio. */
function InvoiceTransitionDialog({ invoice, event, onClose }: { invoice: RaRecord; event: InvoiceEvent; onClose: () => void }) {
  const dataProvider = useDataProvider<SiaDataProvider>();
  const [date, setDate] = useState<string | null>(businessToday());
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
      validate={(comment) => invoiceTransitionSchema.safeParse(input(comment))}
      send={async (comment) => {
        await dataProvider.transitionInvoice(invoice.id, input(comment), invoice.lock_version as number | undefined);
        return `Factura en ${invoiceStateLabel(event.to)}`;
      }}
      onClose={onClose}
    >
      <SiaDatePicker label="Fecha" value={date} onChange={setDate} />
      {withFolio && (
        <MuiTextField label="Folio" value={folio} onChange={(e) => setFolio(e.target.value)} fullWidth margin="dense" />
      )}
    </TransitionDialog>
  );
}

function InvoiceEvents() {
  const invoice = useRecordContext();
  const [open, setOpen] = useState<InvoiceEvent | null>(null);
  const events = (invoice?.permitted_events ?? []) as InvoiceEvent[];
  if (!invoice || events.length === 0) return null;
  return (
    <Card variant="outlined" sx={{ mt: 2 }}>
      <CardContent>
        <Typography variant="h6" gutterBottom>
          Cambiar estado
        </Typography>
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: "wrap" }}>
          {events.map((event) => (
            <Button key={event.name} variant="contained" size="small" onClick={() => setOpen(event)}>
              {event.label}
            </Button>
          ))}
        </Stack>
      </CardContent>
      {open && <InvoiceTransitionDialog invoice={invoice} event={open} onClose={() => setOpen(null)} />}
    </Card>
  );
}

function InvoiceEditLink({ projectId }: { projectId: string }) {
  const record = useRecordContext();
  const { canAccess } = useCanAccess({ resource: "invoices", action: "update", record });
  if (!record || !canAccess || record.editable === false) return null;
  return (
    <Button component={Link} to={invoicesPath(projectId, `update/${record.id}`)} startIcon={<EditIcon />} size="small">
      Editar
    </Button>
  );
}

function InvoiceDetails() {
  const record = useRecordContext();
  if (!record) return null;
  return (
    <Box>
      <SimpleShowLayout>
        <TextField source="id" />
        <TextField source="project_name" label="Proyecto" />
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
  const projectId = useProjectId();
  const { invoiceId } = useParams();
  return (
    <>
      <ProjectHeader projectId={projectId} />
      <Show
        error={recordError}
        resource="invoices"
        id={invoiceId}
        title="Factura"
        actions={
          <TopToolbar>
            <Button component={Link} to={invoicesPath(projectId)} size="small">
              Facturas del proyecto
            </Button>
            <InvoiceEditLink projectId={projectId} />
          </TopToolbar>
        }
      >
        <InvoiceDetails />
      </Show>
    </>
  );
}

const [LIST, CREATE, EDIT, SHOW] = INVOICE_PATHS;

/** The routes under /app/projects/:projectId/invoices/*. */
export function ProjectInvoicesRoutes() {
  return (
    <ResourceContextProvider value="invoices">
      <Routes>
        <Route index element={<InvoiceList />} />
        {LIST !== "" && <Route path={LIST} element={<InvoiceList />} />}
        <Route path={CREATE} element={<InvoiceCreate />} />
        <Route path={EDIT} element={<InvoiceEdit />} />
        <Route path={SHOW} element={<InvoiceShow />} />
      </Routes>
    </ResourceContextProvider>
  );
}
