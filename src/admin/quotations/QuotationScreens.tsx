/**
 * Quotations (SPEC §2 /app/quotations, §3, §4): the list with product and status filters, the form with
 * the optional calendar event, and the detail with one button per permitted event, each through the
 * comment dialog; after "Aprobar cotización" the client and project it created.
 */
import { zodResolver } from "@hookform/resolvers/zod";
import BusinessIcon from "@mui/icons-material/Business";
import EventIcon from "@mui/icons-material/Event";
import ViewKanbanIcon from "@mui/icons-material/ViewKanban";
import { Alert, Box, Button, Card, CardContent, Chip, Link as MuiLink, Stack, Typography } from "@mui/material";
import FormControlLabel from "@mui/material/FormControlLabel";
import Switch from "@mui/material/Switch";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import {
  FunctionField,
  HttpError,
  type RaRecord,
  ReferenceInput,
  SelectInput,
  SimpleShowLayout,
  TextField,
  useCanAccess,
  useDataProvider,
  useGetOne,
  useNotify,
  useRecordContext,
  useRedirect,
  useTranslate,
} from "react-admin";
import { Link } from "react-router-dom";
import { MAX_PER_PAGE } from "../../core/constants";
import { messages } from "../../core/messages";
import { FINAL_QUOTATION_STATES, nextState } from "../../core/quotationMachine";
import { screenPath } from "../../core/resources";
import { quotationFormSchema, quotationTransitionSchema } from "../../core/schemas/quotation";
import { QUOTATION_STATES, type QuotationState } from "../../core/states";
import type { SiaDataProvider } from "../../dataProvider";
import { AuditTrail, formatDateTime } from "../common/AuditTrail";
import { SiaDateField } from "../common/DateField";
import { SearchFilter } from "../common/SearchFilter";
import { SiaCreate, SiaEdit, SiaList, SiaShow } from "../common/screens";
import { TransitionDialog } from "../common/TransitionDialog";
import { emptyEvent, eventForForm, QuotationInputs } from "./QuotationInputs";

const resolver = zodResolver(quotationFormSchema as never);

type QuotationRecord = RaRecord & {
  state?: string;
  state_name?: string;
  contact_name?: string;
  prospect_id?: number | null;
  prospect_name?: string | null;
  client_id?: number | null;
  client_name?: string | null;
  project_id?: number | null;
  event?: unknown;
  event_url?: string | null;
  permitted_events?: Array<{ id: string; name: string }>;
};

const stateLabel = (state?: string) => (state ? (QUOTATION_STATES[state as QuotationState] ?? state) : "—");
/** Alta Cliente, Rechazada and Cancelada are final: the record of what happened, read-only. */
const isFinal = (record: RaRecord) => FINAL_QUOTATION_STATES.includes(record.state as QuotationState);

/** The state as a chip: open states coloured, final ones outlined ("Alta Cliente" green). */
export function QuotationStateChip({ state, label }: { state?: string; label?: string }) {
  if (!state) return null;
  const final = FINAL_QUOTATION_STATES.includes(state as QuotationState);
  return (
    <Chip
      size="small"
      label={label ?? stateLabel(state)}
      color={state === "finalizada" ? "success" : final ? "default" : "primary"}
      variant={final ? "outlined" : "filled"}
    />
  );
}

/** GET quotations/quotation_states: the status filter's choices, with the server's Spanish labels. */
function useQuotationStates() {
  const dataProvider = useDataProvider<SiaDataProvider>();
  return useQuery({
    queryKey: ["quotations", "quotationStates"],
    queryFn: () => dataProvider.quotationStates(),
    staleTime: Infinity,
  });
}

export function QuotationList() {
  const { data: states = [] } = useQuotationStates();
  const filters = [
    <SearchFilter key="q" source="q" alwaysOn placeholder="sia.quotations.search" />,
    <ReferenceInput
      key="product"
      source="by_product"
      reference="products"
      perPage={MAX_PER_PAGE}
      sort={{ field: "name", order: "ASC" }}
      alwaysOn
    >
      <SelectInput optionText="name" label="resources.quotations.fields.by_product" emptyText="sia.filters.all" />
    </ReferenceInput>,
    <SelectInput
      key="status"
      source="by_status"
      label="resources.quotations.fields.by_status"
      choices={states}
      alwaysOn
      emptyText="sia.filters.all"
      emptyValue=""
    />,
  ];
  return (
    <SiaList filters={filters} sort={{ field: "created_at", order: "DESC" }}>
      <TextField source="id" />
      <TextField source="contact_name" />
      <TextField source="prospect_name" emptyText="—" />
      <TextField source="client_name" emptyText="—" />
      <TextField source="product_name" emptyText="—" />
      <FunctionField
        source="state"
        render={(r: QuotationRecord) => <QuotationStateChip state={r.state} label={r.state_name} />}
      />
      <SiaDateField source="created_at" showTime />
    </SiaList>
  );
}

/** The form's values leave without the tick; an unticked event is null (removed from the calendar). */
const transform = (data: Record<string, unknown>) => {
  const { with_event: _tick, ...rest } = data;
  return rest;
};

export function QuotationCreate() {
  return (
    <SiaCreate transform={transform} resolver={resolver} defaultValues={{ with_event: false, event: emptyEvent() }}>
      <QuotationInputs />
    </SiaCreate>
  );
}

/** The stored event (calendar shape) becomes the form's, so an untouched event is not sent again. */
const forEditing = (record: QuotationRecord) => {
  const event = eventForForm(record.event);
  return { ...record, with_event: Boolean(event), event };
};

/** A final quotation has no form: its edit path leads back to its detail, saying why. */
function FinalQuotationGuard() {
  const record = useRecordContext<QuotationRecord>();
  const notify = useNotify();
  const redirect = useRedirect();
  const final = Boolean(record && isFinal(record));
  useEffect(() => {
    if (!record || !final) return;
    notify(messages.quotationFinalLocked(stateLabel(record.state)), { type: "warning" });
    redirect(screenPath("quotations", "show", record.id));
  }, [final, record, notify, redirect]);
  return null;
}

export function QuotationEdit() {
  return (
    <SiaEdit transform={transform} resolver={resolver} queryOptions={{ select: forEditing }}>
      <FinalQuotationGuard />
      <QuotationInputs />
    </SiaEdit>
  );
}

/** Each step's comment (GET quotations/:id/audit_logs): who, when, from → to. The record keeps the last. */
function QuotationHistory() {
  const record = useRecordContext<QuotationRecord>();
  if (!record) return null;
  return (
    <AuditTrail
      resource="quotations"
      id={record.id}
      steps={{ field: "state", label: "sia.quotations.state_change" }}
      valueLabel={(_field, value) => (value ? stateLabel(value) : null)}
      title="sia.quotations.history"
      emptyText="sia.quotations.history_empty"
    />
  );
}

/** The calendar event: when, who, the .ics invitation and, for a real calendar, its page. */
function EventPanel() {
  const record = useRecordContext<QuotationRecord>();
  const translate = useTranslate();
  const event = eventForForm(record?.event);
  if (!record || !event) return null;
  const ics = `/api/v1/quotations/${encodeURIComponent(String(record.id))}/invitation.ics`;
  const ends = new Date(new Date(event.starts_at).getTime() + event.duration_minutes * 60_000).toISOString();
  return (
    <Card variant="outlined" sx={{ mt: 2 }}>
      <CardContent>
        <Typography variant="h6" gutterBottom>
          {translate("sia.quotations.event")}
        </Typography>
        <Typography variant="body2">{event.summary ?? "—"}</Typography>
        <Typography variant="body2" data-testid="quotation-event-when">
          {formatDateTime(event.starts_at)} – {formatDateTime(ends)} ({event.duration_minutes} min)
        </Typography>
        <Typography variant="body2" sx={{ mb: 1 }}>
          {translate("sia.quotations.guests", {
            list: event.attendees.length ? event.attendees.join(", ") : translate("sia.quotations.no_guests"),
          })}
        </Typography>
        <Stack direction="row" spacing={2}>
          <MuiLink href={ics} download>
            <Stack direction="row" spacing={0.5} alignItems="center" component="span">
              <EventIcon fontSize="small" />
              <span>{translate("sia.quotations.download_invitation")}</span>
            </Stack>
          </MuiLink>
          {record.event_url && record.event_url !== ics && (
            <MuiLink href={record.event_url} target="_blank" rel="noopener noreferrer">
              {translate("sia.quotations.see_in_calendar")}
            </MuiLink>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}

/** What "Aprobar cotización" created (quotations.client_id / project_id, as the transition answered). */
function CreatedRecords() {
  const record = useRecordContext<QuotationRecord>();
  const translate = useTranslate();
  const { canAccess: canSeeClients } = useCanAccess({ resource: "clients", action: "show" });
  const { canAccess: canSeeProjects } = useCanAccess({ resource: "projects", action: "show" });
  const clientId = record?.client_id ?? undefined;
  const projectId = record?.project_id ?? undefined;
  const { data: client } = useGetOne(
    "clients",
    { id: clientId as number },
    { enabled: Boolean(clientId) && canSeeClients === true },
  );
  const { data: project } = useGetOne(
    "projects",
    { id: projectId as number },
    { enabled: Boolean(projectId) && canSeeProjects === true },
  );
  if (!record || (!clientId && !projectId)) return null;
  return (
    <Alert severity="success" sx={{ mt: 2 }} icon={false}>
      <Typography variant="subtitle2" gutterBottom>
        {translate(record.state === "finalizada" ? "sia.quotations.created_on_final" : "sia.quotations.created_records")}
      </Typography>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: "wrap" }}>
        {clientId && (
          <Button
            component={Link}
            to={screenPath("clients", "show", clientId)}
            startIcon={<BusinessIcon />}
            size="small"
            variant="outlined"
          >
            {translate("sia.quotations.client", { name: client?.name ?? `#${clientId}` })}
          </Button>
        )}
        {projectId && (
          <Button
            component={Link}
            to={screenPath("projects", "show", projectId)}
            startIcon={<ViewKanbanIcon />}
            size="small"
            variant="outlined"
          >
            {translate("sia.quotations.project", {
              name: project ? `${project.project_code} — ${project.name}` : `#${projectId}`,
            })}
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

/** The look-alike client warning of a refused approval (a 422 on `confirm_similar`), if that was the refusal. */
function similarWarning(error: unknown): string | null {
  if (!(error instanceof HttpError) || error.status !== 422) return null;
  const errors = (error.body as { errors?: Record<string, string[]> } | undefined)?.errors;
  return errors?.confirm_similar?.[0] ?? null;
}

/** One button per permitted event; each asks for the comment and posts aasm_transition. */
function QuotationEvents() {
  const record = useRecordContext<QuotationRecord>();
  const dataProvider = useDataProvider<SiaDataProvider>();
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ resource: "quotations", action: "transition", record });
  const [open, setOpen] = useState<{ id: string; name: string } | null>(null);
  // Approving makes the prospect a client: one named like another (or with its RFC) is confirmed first.
  const [similar, setSimilar] = useState<string | null>(null);
  const [confirmSimilar, setConfirmSimilar] = useState(false);
  const events = record?.permitted_events ?? [];
  if (!record || !canAccess) return null;
  const to = open ? nextState(String(record.state), open.id) : null;
  const dialog = open && (
    <TransitionDialog
      title={open.name}
      available={events.some((permitted) => permitted.id === open.id)}
      version={record.lock_version}
      subtitle={
        <>
          <Typography variant="body2" sx={{ mb: 1 }}>
            {stateLabel(record.state)} → {stateLabel(to ?? undefined)}
          </Typography>
          {open.id === "approve_quote" && (
            <Typography variant="body2" sx={{ mb: 1 }} data-testid="approval-client">
              {record.client_name
                ? translate("sia.quotations.approval_adds_project", { name: record.client_name })
                : translate("sia.quotations.approval_creates_client", { name: record.prospect_name ?? record.contact_name })}
            </Typography>
          )}
        </>
      }
      validate={(comment) => quotationTransitionSchema.safeParse({ quotation: { event: open.id, audit_comment: comment } })}
      send={async (comment) => {
        let answer: QuotationRecord;
        try {
          answer = (await dataProvider.transitionQuotation(
            record.id,
            {
              quotation: { event: open.id, audit_comment: comment },
              ...(similar && confirmSimilar ? { client_hash: { confirm_similar: true } } : {}),
            },
            record.lock_version as number | undefined,
          )) as QuotationRecord;
        } catch (error) {
          const warning = similarWarning(error);
          if (warning) setSimilar(warning);
          throw error;
        }
        if (answer.state === "finalizada")
          return record.client_name
            ? translate("sia.quotations.project_added", { name: record.client_name })
            : translate("sia.quotations.client_created");
        return translate("sia.quotations.moved_to", { state: stateLabel(answer.state) });
      }}
      onClose={() => {
        setOpen(null);
        setSimilar(null);
        setConfirmSimilar(false);
      }}
    >
      {similar && (
        <>
          <Alert severity="warning" sx={{ mt: 1 }}>
            {similar}
          </Alert>
          <FormControlLabel
            control={<Switch checked={confirmSimilar} onChange={(e) => setConfirmSimilar(e.target.checked)} />}
            label={translate("sia.admin_access.confirm_similar")}
          />
        </>
      )}
    </TransitionDialog>
  );
  // The dialog is not inside the card: when another user moves the quotation to a final state meanwhile,
  // the card goes but the open dialog stays (the same element, with what was typed) to say so.
  return (
    <>
      {events.length > 0 && (
        <Card variant="outlined" sx={{ mt: 2 }}>
          <CardContent>
            <Typography variant="h6" gutterBottom>
              {translate("sia.quotations.change_state")}
            </Typography>
            <Stack
              direction="row"
              spacing={1}
              useFlexGap
              sx={{ flexWrap: "wrap" }}
              aria-label={translate("sia.quotations.events")}
            >
              {events.map((event) => (
                <Button key={event.id} variant="contained" size="small" onClick={() => setOpen(event)}>
                  {event.name}
                </Button>
              ))}
            </Stack>
          </CardContent>
        </Card>
      )}
      {dialog}
    </>
  );
}

export function QuotationShow() {
  return (
    <SiaShow editable={(record) => !isFinal(record)}>
      <Box>
        <SimpleShowLayout>
          <TextField source="id" />
          <TextField source="contact_name" />
          <FunctionField
            source="prospect_name"
            render={(r: QuotationRecord) =>
              r.prospect_id ? (
                <MuiLink component={Link} to={screenPath("prospects", "show", r.prospect_id)}>
                  {r.prospect_name}
                </MuiLink>
              ) : (
                (r.prospect_name ?? "—")
              )
            }
          />
          <FunctionField
            source="client_name"
            render={(r: QuotationRecord) => {
              const clientId = r.client_id;
              if (!r.client_name) return "—";
              return clientId ? (
                <MuiLink component={Link} to={screenPath("clients", "show", clientId)}>
                  {r.client_name}
                </MuiLink>
              ) : (
                r.client_name
              );
            }}
          />
          <TextField source="product_name" emptyText="—" />
          <FunctionField
            source="state"
            render={(r: QuotationRecord) => <QuotationStateChip state={r.state} label={r.state_name} />}
          />
          <TextField source="audit_comment" label="resources.quotations.fields.audit_comment_last" emptyText="—" />
          <SiaDateField source="created_at" showTime />
        </SimpleShowLayout>
        <CreatedRecords />
        <QuotationEvents />
        <QuotationHistory />
        <EventPanel />
      </Box>
    </SiaShow>
  );
}

/** The screens, loaded on demand (src/admin/quotations/index.ts declares the resource). */
export const screens = {
  list: QuotationList,
  create: QuotationCreate,
  edit: QuotationEdit,
  show: QuotationShow,
};
