/** The project detail screen's panels: state events, ETA extension, invoicing, notice, stage history, estimated hours, comment. */
import DeleteIcon from "@mui/icons-material/Delete";
import {
  Alert,
  Autocomplete,
  Button,
  Card,
  CardContent,
  Checkbox,
  FormControlLabel,
  IconButton,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from "@mui/material";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import {
  type Identifier,
  type RaRecord,
  useCanAccess,
  useCreate,
  useDataProvider,
  useDelete,
  useGetList,
  useNotify,
  usePermissions,
  useRecordContext,
  useRefresh,
  useTranslate,
} from "react-admin";
import { MAX_PER_PAGE } from "../../core/constants";
import { MAX_INVOICED_PERCENTAGE } from "../../core/invoiceMachine";
import { messages } from "../../core/messages";
import { canOnProject } from "../../core/permissions";
import { projectStateLabel } from "../../core/projectMachine";
import { estimatedWorkHourSchema } from "../../core/schemas/estimated_work_hour";
import { extendProjectSchema, projectTransitionSchema } from "../../core/schemas/project";
import type { SessionUser } from "../../core/session";
import { INVOICE_ACTIONS } from "../../core/states";
import { businessToday } from "../../core/week";
import type { SiaDataProvider } from "../../dataProvider";
import { ActionDialog } from "../common/ActionDialog";
import { formatDateTime } from "../common/AuditTrail";
import { formatDate, SiaDatePicker } from "../common/DatePickerInput";
import { useStaleRetry } from "../common/staleRetry";
import { issueOf, TransitionDialog } from "../common/TransitionDialog";

interface PermittedEvent {
  name: string;
  label: string;
  to: string;
  admin_only?: boolean;
}

type ProjectRecord = RaRecord & {
  state?: string;
  invoiced_percentage?: number;
  invoice_action?: string | null;
  eta?: string | null;
  project_date?: string | null;
  permitted_events?: PermittedEvent[];
  rape_id?: number | null;
};

/** Audit values shown in Spanish (state keys → labels, invoicing actions → labels). */
export const stateValueLabel = (field: string, value: string | null) => {
  if (value === null) return null;
  if (field === "state") return projectStateLabel(value);
  if (field === "invoice_action") return INVOICE_ACTIONS[value as keyof typeof INVOICE_ACTIONS] ?? value;
  if (field === "eta") return formatDate(value);
  // A comment saved on its own: its text is the row's comment, not a value that changed.
  if (field === "audit_comment") return null;
  return value;
};

const errorText = (error: unknown) => (error as Error)?.message ?? messages.somethingFailed;

function useActiveEmployees() {
  return useGetList<{ id: number; name: string }>("employees", {
    pagination: { page: 1, perPage: MAX_PER_PAGE },
    sort: { field: "name", order: "ASC" },
    filter: { is_active: true },
  });
}

/** Dialog of one state event: comment (required), date, responsible person and ETA. */
function ProjectTransitionDialog({
  project,
  event,
  onClose,
}: {
  project: ProjectRecord;
  event: PermittedEvent;
  onClose: () => void;
}) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<SiaDataProvider>();
  const { data: employees = [] } = useActiveEmployees();
  const [date, setDate] = useState<string | null>(businessToday());
  const [responsible, setResponsible] = useState<number | null>(project.rape_id ?? null);
  const [eta, setEta] = useState<string | null>(project.eta ?? null);
  const input = (comment: string) => ({ event: event.name, audit_comment: comment, date, responsible_id: responsible, eta });
  // Refused here as the server refuses it (and as «Extender fecha estimada» does).
  const etaError =
    eta && project.project_date && eta < project.project_date ? messages.etaBeforeProjectDate(project.project_date) : undefined;

  return (
    <TransitionDialog
      title={event.label}
      available={(project.permitted_events ?? []).some((permitted) => permitted.name === event.name)}
      version={project.lock_version}
      subtitle={
        <Typography variant="body2" sx={{ mb: 1 }}>
          {projectStateLabel(project.state ?? "")} → {projectStateLabel(event.to)}
        </Typography>
      }
      validate={(comment) => {
        const parsed = projectTransitionSchema.safeParse(input(comment));
        if (!parsed.success || !etaError) return parsed;
        return { success: false, error: { issues: [{ path: ["eta"], message: etaError }] } };
      }}
      send={async (comment) => {
        await dataProvider.transitionProject(project.id, input(comment), project.lock_version);
        return translate("resources.projects.transition.done", { state: projectStateLabel(event.to) });
      }}
      onClose={onClose}
    >
      <SiaDatePicker label={translate("resources.projects.transition.date")} value={date} onChange={setDate} />
      <Autocomplete
        options={employees}
        getOptionLabel={(o) => o.name}
        value={employees.find((e) => e.id === responsible) ?? null}
        onChange={(_e, value) => setResponsible(value?.id ?? null)}
        isOptionEqualToValue={(a, b) => a.id === b.id}
        noOptionsText={translate("resources.projects.transition.no_options")}
        renderInput={(params) => (
          <TextField
            {...params}
            label={translate("resources.projects.transition.responsible")}
            helperText={translate("resources.projects.transition.responsible_help")}
            margin="dense"
            size="small"
          />
        )}
      />
      <SiaDatePicker
        label={translate("resources.projects.transition.eta")}
        value={eta}
        onChange={setEta}
        error={Boolean(etaError)}
        helperText={etaError}
      />
    </TransitionDialog>
  );
}

/** ETA extension (POST extend_project): a new ETA and the comment that justifies it. */
function ExtendDialog({ project, onClose }: { project: ProjectRecord; onClose: () => void }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<SiaDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [eta, setEta] = useState<string | null>(project.eta ?? null);
  const [comment, setComment] = useState("");
  const [errors, setErrors] = useState<{ eta?: string; audit_comment?: string }>({});
  const confirm = async () => {
    const input = { eta, audit_comment: comment };
    const parsed = extendProjectSchema.safeParse(input);
    setErrors({ eta: issueOf(parsed, "eta"), audit_comment: issueOf(parsed, "audit_comment") });
    if (!parsed.success) return;
    await dataProvider.extendProject(project.id, input, project.lock_version);
    notify("resources.projects.extend.done", { type: "success" });
    refresh();
    onClose();
  };
  return (
    <ActionDialog
      title={translate("resources.projects.extend.title")}
      onConfirm={confirm}
      onClose={onClose}
      confirmLabel="ra.action.save"
    >
      <SiaDatePicker
        label={translate("resources.projects.extend.eta")}
        value={eta}
        onChange={setEta}
        error={Boolean(errors.eta)}
        helperText={errors.eta}
      />
      <TextField
        label={translate("resources.projects.extend.comment")}
        value={comment}
        onChange={(e) => setComment(e.target.value)}
        error={Boolean(errors.audit_comment)}
        helperText={errors.audit_comment ?? " "}
        multiline
        minRows={2}
        fullWidth
        margin="dense"
        required
      />
    </ActionDialog>
  );
}

/** Invoicing action: '100% facturas ya realizadas' → completely_invoiced, otherwise partially_invoiced (SPEC §4). */
function InvoicingDialog({ project, onClose }: { project: ProjectRecord; onClose: () => void }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<SiaDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const [complete, setComplete] = useState(project.invoice_action === "completely_invoiced");
  // «100%» only when the invoices add up to 100 % (the server refuses otherwise); unmarking is always offered.
  const invoiced = Number(project.invoiced_percentage ?? 0);
  const canComplete = invoiced === MAX_INVOICED_PERCENTAGE || project.invoice_action === "completely_invoiced";
  const [comment, setComment] = useState("");
  const confirm = async () => {
    const action = complete ? "completely_invoiced" : "partially_invoiced";
    await dataProvider.markInvoiced(project.id, action, comment, project.lock_version);
    notify(INVOICE_ACTIONS[action], { type: "success" });
    refresh();
    onClose();
  };
  return (
    <ActionDialog
      title={translate("resources.projects.invoicing.title")}
      onConfirm={confirm}
      onClose={onClose}
      confirmLabel="ra.action.save"
    >
      <FormControlLabel
        control={<Checkbox checked={complete} disabled={!canComplete} onChange={(e) => setComplete(e.target.checked)} />}
        label={INVOICE_ACTIONS.completely_invoiced}
      />
      <Typography variant="body2" color="text.secondary">
        {translate("resources.projects.invoicing.unmarked", { action: INVOICE_ACTIONS.partially_invoiced })}
      </Typography>
      <Typography variant="body2" color={canComplete ? "text.secondary" : "warning.main"} data-testid="invoiced-percentage">
        {canComplete
          ? translate("resources.projects.invoicing.total", { percentage: invoiced })
          : translate("resources.projects.invoicing.total_short", {
              percentage: invoiced,
              action: INVOICE_ACTIONS.completely_invoiced,
            })}
      </Typography>
      <TextField
        label={translate("resources.projects.invoicing.comment")}
        value={comment}
        onChange={(e) => setComment(e.target.value)}
        multiline
        fullWidth
        margin="dense"
      />
    </ActionDialog>
  );
}

const NOTICE_MAX_LENGTH = 500;

/** Notice to the PM and responsible users (POST notify_user); the server's answer is shown as given. */
function NotifyDialog({ project, onClose }: { project: ProjectRecord; onClose: () => void }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<SiaDataProvider>();
  const [message, setMessage] = useState("");
  const [answer, setAnswer] = useState<string>();
  const confirm = async () => {
    const sent = await dataProvider.notifyProjectUsers(project.id, message);
    setAnswer(sent.message);
  };
  return (
    <ActionDialog
      title={translate("resources.projects.notify.title")}
      onConfirm={confirm}
      onClose={onClose}
      confirmLabel="resources.projects.notify.send"
      cancelLabel="ra.action.close"
      confirmable={answer === undefined}
      errorFallback={messages.somethingFailed}
    >
      {answer !== undefined && (
        <Alert severity="info" sx={{ mb: 1 }}>
          {answer}
        </Alert>
      )}
      <TextField
        label={translate("resources.projects.notify.message")}
        value={message}
        onChange={(e) => setMessage(e.target.value)}
        inputProps={{ maxLength: NOTICE_MAX_LENGTH }}
        helperText={translate("resources.projects.notify.counter", { length: message.length, max: NOTICE_MAX_LENGTH })}
        multiline
        fullWidth
        margin="dense"
        disabled={answer !== undefined}
      />
    </ActionDialog>
  );
}

type OpenDialog =
  | { kind: "event"; event: PermittedEvent }
  | { kind: "extend" }
  | { kind: "invoicing" }
  | { kind: "notify" }
  | null;

/** One button per permitted event (none → no action shown), then the other actions the user's role allows. */
export function ProjectActionsBar() {
  const translate = useTranslate();
  const project = useRecordContext<ProjectRecord>();
  const [open, setOpen] = useState<OpenDialog>(null);
  const { canAccess: canUpdate } = useCanAccess({ resource: "projects", action: "update", record: project });
  const { canAccess: canInvoice } = useCanAccess({ resource: "projects", action: "invoice", record: project });
  const { canAccess: canNotify } = useCanAccess({ resource: "projects", action: "notify", record: project });
  if (!project) return null;
  const events = project.permitted_events ?? [];
  const close = () => setOpen(null);
  if (!events.length && !canUpdate && !canInvoice && !canNotify) return null;
  return (
    <Card variant="outlined" sx={{ mt: 2 }}>
      <CardContent>
        {events.length > 0 && (
          <>
            <Typography variant="h6" gutterBottom>
              {translate("resources.projects.actions.change_state")}
            </Typography>
            <Stack
              direction="row"
              spacing={1}
              useFlexGap
              sx={{ flexWrap: "wrap", mb: 2 }}
              aria-label={translate("resources.projects.actions.events")}
            >
              {events.map((event) => (
                <Button key={event.name} variant="contained" size="small" onClick={() => setOpen({ kind: "event", event })}>
                  {event.label}
                </Button>
              ))}
            </Stack>
          </>
        )}
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: "wrap" }}>
          {canUpdate && (
            <Button variant="outlined" size="small" onClick={() => setOpen({ kind: "extend" })}>
              {translate("resources.projects.actions.extend")}
            </Button>
          )}
          {canInvoice && (
            <Button variant="outlined" size="small" onClick={() => setOpen({ kind: "invoicing" })}>
              {translate("resources.projects.actions.invoicing")}
            </Button>
          )}
          {canNotify && (
            <Button variant="outlined" size="small" onClick={() => setOpen({ kind: "notify" })}>
              {translate("resources.projects.actions.notify")}
            </Button>
          )}
        </Stack>
      </CardContent>
      {open?.kind === "event" && <ProjectTransitionDialog project={project} event={open.event} onClose={close} />}
      {open?.kind === "extend" && <ExtendDialog project={project} onClose={close} />}
      {open?.kind === "invoicing" && <InvoicingDialog project={project} onClose={close} />}
      {open?.kind === "notify" && <NotifyDialog project={project} onClose={close} />}
    </Card>
  );
}

const STAGE_COLUMNS = ["created_at", "event", "from", "to", "date", "responsible", "eta", "user", "comment"] as const;

/** The project's stage history (GET projects/:id/project_stages). */
export function StageHistory() {
  const translate = useTranslate();
  const project = useRecordContext();
  const dataProvider = useDataProvider<SiaDataProvider>();
  const {
    data = [],
    isPending,
    error,
  } = useQuery({
    queryKey: ["projects", "projectStages", String(project?.id)],
    queryFn: () => dataProvider.projectStages(project?.id as Identifier),
    enabled: Boolean(project?.id),
  });
  return (
    <Card variant="outlined" sx={{ mt: 2 }}>
      <CardContent>
        <Typography variant="h6" gutterBottom>
          {translate("resources.projects.stages.title")}
        </Typography>
        {isPending ? (
          <Typography variant="body2">{translate("resources.projects.stages.loading")}</Typography>
        ) : error ? (
          <Typography color="error">{errorText(error)}</Typography>
        ) : data.length === 0 ? (
          <Typography variant="body2">{translate("resources.projects.stages.empty")}</Typography>
        ) : (
          <Table size="small" aria-label={translate("resources.projects.stages.title")}>
            <TableHead>
              <TableRow>
                {STAGE_COLUMNS.map((column) => (
                  <TableCell key={column}>{translate(`resources.projects.stages.${column}`)}</TableCell>
                ))}
              </TableRow>
            </TableHead>
            <TableBody>
              {data.map((stage) => (
                <TableRow key={stage.id}>
                  <TableCell>{formatDateTime(stage.created_at)}</TableCell>
                  <TableCell>{stage.event_label}</TableCell>
                  <TableCell>{stage.from_state_label ?? "—"}</TableCell>
                  <TableCell>{stage.to_state_label}</TableCell>
                  <TableCell>{formatDate(stage.stage_date)}</TableCell>
                  <TableCell>{stage.responsible_name ?? "—"}</TableCell>
                  <TableCell>{formatDate(stage.eta)}</TableCell>
                  <TableCell>{stage.user_name ?? translate("resources.projects.stages.system")}</TableCell>
                  <TableCell>{stage.comment ?? "—"}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * Estimated hours per employee position (estimated_work_hours of the project): shown to whoever reads them
 * all, and to an Operador on the projects they lead (decision 029). Nothing is asked before the grant is
 * known: a check still pending is not a yes (no request the server would refuse).
 */
export function EstimatedHoursPanel() {
  const translate = useTranslate();
  const staleText = useStaleRetry();
  const project = useRecordContext<ProjectRecord & { pm_id?: number | null }>();
  const notify = useNotify();
  const { permissions: me } = usePermissions<SessionUser | null>();
  const canList = canOnProject(me, "estimated_work_hours", "list", project);
  const { canAccess: canCreate = false } = useCanAccess({ resource: "estimated_work_hours", action: "create" });
  const { canAccess: canDelete = false } = useCanAccess({ resource: "estimated_work_hours", action: "delete" });
  const { data: rows = [], refetch } = useGetList<{ id: number; estimated_hours: number; employee_position_name: string | null }>(
    "estimated_work_hours",
    { pagination: { page: 1, perPage: MAX_PER_PAGE }, sort: { field: "id", order: "ASC" }, filter: { project_id: project?.id } },
    { enabled: Boolean(project?.id) && canList },
  );
  const { data: positions = [] } = useGetList<{ id: number; name: string }>(
    "employee_positions",
    { pagination: { page: 1, perPage: MAX_PER_PAGE }, sort: { field: "name", order: "ASC" } },
    { enabled: canCreate },
  );
  const queryClient = useQueryClient();
  const [hours, setHours] = useState("");
  const [position, setPosition] = useState("");
  // The message of the last attempt, on the field it is about: an edit clears it, so an old error never
  // stands for a new value.
  const [error, setError] = useState<{ field?: "estimated_hours" | "employee_position_id"; message: string }>();
  const [create, { isPending: creating }] = useCreate();
  const [remove] = useDelete();
  if (!project || !canList) return null;
  const total = rows.reduce((sum, r) => sum + Number(r.estimated_hours ?? 0), 0);
  // «Horas estimadas vs. registradas» reads the same estimates: it follows every change here.
  const changed = () => {
    refetch();
    queryClient.invalidateQueries({ queryKey: ["dashboards", "project", String(project.id)] });
  };

  const add = () => {
    const data = { project_id: project.id, estimated_hours: hours, employee_position_id: position };
    const parsed = estimatedWorkHourSchema.safeParse(data);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path[0];
      setError({
        field: field === "estimated_hours" || field === "employee_position_id" ? field : undefined,
        message: issue?.message ?? messages.somethingFailed,
      });
      return;
    }
    setError(undefined);
    create(
      "estimated_work_hours",
      { data: parsed.data },
      {
        onSuccess: () => {
          setHours("");
          setPosition("");
          changed();
        },
        onError: (e) => setError({ message: staleText(e) }),
      },
    );
  };
  const fieldError = (field: "estimated_hours" | "employee_position_id") => (error?.field === field ? error.message : undefined);

  return (
    <Card variant="outlined" sx={{ mt: 2 }}>
      <CardContent>
        <Typography variant="h6" gutterBottom>
          {translate("resources.projects.estimated_hours.title")}
        </Typography>
        <Table size="small" aria-label={translate("resources.projects.estimated_hours.title")}>
          <TableHead>
            <TableRow>
              <TableCell>{translate("resources.projects.estimated_hours.position")}</TableCell>
              <TableCell align="right">{translate("resources.projects.estimated_hours.hours")}</TableCell>
              {canDelete && <TableCell />}
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.id}>
                <TableCell>{row.employee_position_name ?? "—"}</TableCell>
                <TableCell align="right">{Number(row.estimated_hours).toLocaleString("es-MX")}</TableCell>
                {canDelete && (
                  <TableCell align="right">
                    <IconButton
                      size="small"
                      aria-label={translate("resources.projects.estimated_hours.delete")}
                      onClick={() =>
                        remove(
                          "estimated_work_hours",
                          { id: row.id, previousData: row },
                          {
                            mutationMode: "pessimistic",
                            onSuccess: changed,
                            onError: (e) => notify(errorText(e), { type: "error" }),
                          },
                        )
                      }
                    >
                      <DeleteIcon fontSize="small" />
                    </IconButton>
                  </TableCell>
                )}
              </TableRow>
            ))}
            <TableRow>
              <TableCell>
                <strong>{translate("resources.projects.estimated_hours.total")}</strong>
              </TableCell>
              <TableCell align="right">
                <strong>{total.toLocaleString("es-MX")}</strong>
              </TableCell>
              {canDelete && <TableCell />}
            </TableRow>
          </TableBody>
        </Table>
        {canCreate && (
          <Stack
            direction={{ xs: "column", sm: "row" }}
            spacing={1}
            sx={{ mt: 2 }}
            alignItems={{ xs: "stretch", sm: "flex-start" }}
          >
            <TextField
              select
              label={translate("resources.projects.estimated_hours.position")}
              value={position}
              onChange={(e) => {
                setPosition(e.target.value);
                setError(undefined);
              }}
              error={Boolean(fieldError("employee_position_id"))}
              helperText={fieldError("employee_position_id")}
              size="small"
              sx={{ minWidth: 220 }}
            >
              {positions.map((p) => (
                <MenuItem key={p.id} value={String(p.id)}>
                  {p.name}
                </MenuItem>
              ))}
            </TextField>
            {/* Text, not type=number: the browser would blank what it cannot read (−5, 1,5) and the
                schema would never see it. */}
            <TextField
              label={translate("resources.projects.estimated_hours.hours")}
              value={hours}
              onChange={(e) => {
                setHours(e.target.value);
                setError(undefined);
              }}
              error={Boolean(fieldError("estimated_hours"))}
              helperText={fieldError("estimated_hours")}
              slotProps={{ htmlInput: { inputMode: "decimal" } }}
              size="small"
              sx={{ width: 160 }}
            />
            <Button variant="outlined" onClick={add} disabled={creating}>
              {translate("resources.projects.estimated_hours.add")}
            </Button>
          </Stack>
        )}
        {error && !error.field && (
          <Alert severity="error" sx={{ mt: 1 }}>
            {error.message}
          </Alert>
        )}
      </CardContent>
    </Card>
  );
}

/** A comment on the project (PUT projects/:id with audit_comment). */
export function ProjectCommentBox() {
  const translate = useTranslate();
  const staleText = useStaleRetry();
  const project = useRecordContext();
  const dataProvider = useDataProvider<SiaDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const { canAccess } = useCanAccess({ resource: "projects", action: "update", record: project });
  const [comment, setComment] = useState("");
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  if (!project || !canAccess) return null;
  const save = async () => {
    const parsed = projectTransitionSchema.shape.audit_comment.safeParse(comment);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      await dataProvider.update("projects", {
        id: project.id,
        data: { audit_comment: comment, lock_version: project.lock_version },
        previousData: {} as RaRecord,
      });
      notify("resources.projects.comment.saved", { type: "success" });
      setComment("");
      refresh();
    } catch (e) {
      setError(staleText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card variant="outlined" sx={{ mt: 2 }}>
      <CardContent>
        <Typography variant="h6" gutterBottom>
          {translate("resources.projects.comment.title")}
        </Typography>
        <TextField
          label={translate("resources.projects.comment.label")}
          value={comment}
          onChange={(e) => setComment(e.target.value)}
          error={Boolean(error)}
          helperText={error ?? " "}
          multiline
          minRows={2}
          fullWidth
        />
        <Button variant="outlined" onClick={save} disabled={busy}>
          {translate("resources.projects.comment.save")}
        </Button>
      </CardContent>
    </Card>
  );
}
