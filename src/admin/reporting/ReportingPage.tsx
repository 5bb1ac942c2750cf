/**
 * The reporting screen (SPEC §5, /app/reporting/list; docs/reports.md): choose the kind, search and pick
 * the item, the dates (default: the previous ISO week, nothing after today), tick members to exclude under
 * a client group or workspace, limit it to the hours of approved weeks, and download
 * GET activities/reporting_activities.csv with a progress indicator. Validated with the route's own schema. Anyone without the "all" grant reports only on
 * themselves: the kind is fixed to Empleado and the item to their own employee record.
 */
import DownloadIcon from "@mui/icons-material/Download";
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Card,
  CardContent,
  Checkbox,
  CircularProgress,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormLabel,
  LinearProgress,
  Radio,
  RadioGroup,
  Stack,
  TextField,
  Typography,
} from "@mui/material";
import { useEffect, useMemo, useState } from "react";
import { type RaRecord, Title, useDataProvider, useNotify, usePermissions, useTranslate } from "react-admin";
import { grantFor } from "../../core/permissions";
import {
  REPORT_EXCLUDABLE,
  REPORT_KINDS,
  type ReportKind,
  reportFilterSchema,
  reportSearchParams,
} from "../../core/schemas/report";
import type { SessionUser } from "../../core/session";
import { businessToday, previousWeekOf } from "../../core/week";
import { type SiaDataProvider, validationFromBody } from "../../dataProvider";
import { SiaDatePicker } from "../common/DatePickerInput";

/** The API list behind each kind (what the autocomplete searches). */
const KIND_RESOURCE: Record<ReportKind, string> = {
  project: "projects",
  client: "clients",
  employee: "employees",
  client_group: "client_groups",
  workspace: "workspaces",
};
/** The filter that lists a group's clients / a workspace's employees. */
const MEMBERS: Partial<Record<ReportKind, { resource: string; filter: string }>> = {
  client_group: { resource: "clients", filter: "client_group_id" },
  workspace: { resource: "employees", filter: "workspace_id" },
};

interface Item {
  id: number;
  label: string;
}
const labelOf = (kind: ReportKind | string, record: RaRecord): string =>
  kind === "project" || kind === "projects"
    ? `${record.project_code ?? ""} ${record.name ?? ""}`.trim()
    : String(record.name ?? record.id);

const sizeText = (bytes: number) =>
  bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

type Errors = Partial<Record<"current_filter" | "id" | "start_date" | "end_date" | "base", string>>;

export default function ReportingPage() {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<SiaDataProvider>();
  const { permissions } = usePermissions<SessionUser | null>();
  const me = permissions ?? null;
  const reportsAll = grantFor(me, "reports", "export") === "all";
  const ownEmployee = me?.employee ?? null;
  // A kind is offered when the user may list its items (Finanzas does not list client groups).
  const kinds = useMemo(
    () =>
      reportsAll ? REPORT_KINDS.filter((k) => grantFor(me, KIND_RESOURCE[k], "list") === "all") : (["employee"] as ReportKind[]),
    [reportsAll, me],
  );
  const today = businessToday();
  const week = previousWeekOf(today);

  const [kind, setKind] = useState<ReportKind>("project");
  const [item, setItem] = useState<Item | null>(null);
  const [search, setSearch] = useState("");
  const [options, setOptions] = useState<Item[]>([]);
  const [loadingOptions, setLoadingOptions] = useState(false);
  const [startDate, setStartDate] = useState<string | null>(week.starts_on);
  const [endDate, setEndDate] = useState<string | null>(week.ends_on);
  const [members, setMembers] = useState<Item[] | null>(null);
  const [excluded, setExcluded] = useState<number[]>([]);
  const [approvedOnly, setApprovedOnly] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [progress, setProgress] = useState<number | null>(null);

  // Without the "all" grant: Empleado, themselves.
  useEffect(() => {
    if (!me) return;
    if (!reportsAll) {
      setKind("employee");
      setItem(ownEmployee ? { id: ownEmployee.id, label: ownEmployee.name } : null);
    } else if (!kinds.includes(kind)) setKind(kinds[0] ?? "employee");
  }, [me, reportsAll, ownEmployee, kinds, kind]);

  // Search the chosen kind's list as the user types.
  useEffect(() => {
    if (!reportsAll) return;
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      setLoadingOptions(true);
      try {
        const { data } = await dataProvider.getList(KIND_RESOURCE[kind], {
          pagination: { page: 1, perPage: 25 },
          sort: { field: "id", order: "ASC" },
          filter: search ? { q: search } : {},
          signal: controller.signal,
        });
        setOptions(data.map((r) => ({ id: Number(r.id), label: labelOf(kind, r) })));
      } catch {
        if (!controller.signal.aborted) setOptions([]);
      } finally {
        if (!controller.signal.aborted) setLoadingOptions(false);
      }
    }, 250);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [dataProvider, kind, search, reportsAll]);

  // Members of the chosen group / workspace, to tick for exclusion.
  useEffect(() => {
    const source = MEMBERS[kind];
    setExcluded([]);
    if (!source || !item) {
      setMembers(null);
      return;
    }
    let live = true;
    dataProvider
      .getList(source.resource, {
        pagination: { page: 1, perPage: 500 },
        sort: { field: "name", order: "ASC" },
        filter: { [source.filter]: item.id },
      })
      .then(({ data }) => live && setMembers(data.map((r) => ({ id: Number(r.id), label: labelOf(source.resource, r) }))))
      .catch(() => live && setMembers([]));
    return () => {
      live = false;
    };
  }, [dataProvider, kind, item]);

  const changeKind = (next: ReportKind) => {
    setKind(next);
    setItem(null);
    setSearch("");
    setOptions([]);
    setErrors({});
  };

  const download = async () => {
    const parsed = reportFilterSchema.safeParse({
      current_filter: kind,
      id: item?.id,
      start_date: startDate,
      end_date: endDate,
      excluded_ids: REPORT_EXCLUDABLE[kind] ? excluded : [],
      approved_only: approvedOnly,
    });
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) {
        const key = (issue.path[0] ?? "base") as keyof Errors;
        next[key] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    setProgress(0);
    try {
      const { filename } = await dataProvider.downloadReportCsv(reportSearchParams(parsed.data), setProgress);
      notify(translate("sia.reporting.downloaded", { filename }), { type: "success" });
    } catch (error) {
      const body = (error as { body?: unknown }).body;
      const { inline, base } = validationFromBody(body);
      if (Object.keys(inline).length || base.length) setErrors({ ...inline, base: base[0] });
      else notify((error as Error).message, { type: "error" });
    } finally {
      setProgress(null);
    }
  };

  const kindLabel = translate(`sia.reporting.kinds.${kind}`);
  const exclusion = REPORT_EXCLUDABLE[kind];
  const messages = Object.values(errors).filter(Boolean);

  return (
    <Card sx={{ mt: 2 }}>
      <Title title={translate("sia.reporting.title")} />
      <CardContent>
        <Stack spacing={2} sx={{ maxWidth: 720 }}>
          <FormControl>
            <FormLabel id="report-kind">{translate("sia.reporting.kind")}</FormLabel>
            <RadioGroup row aria-labelledby="report-kind" value={kind} onChange={(e) => changeKind(e.target.value as ReportKind)}>
              {REPORT_KINDS.filter((k) => kinds.includes(k)).map((k) => (
                <FormControlLabel
                  key={k}
                  value={k}
                  control={<Radio />}
                  label={translate(`sia.reporting.kinds.${k}`)}
                  disabled={!reportsAll}
                />
              ))}
            </RadioGroup>
          </FormControl>
          {!reportsAll && <Alert severity="info">{translate("sia.reporting.own_only")}</Alert>}
          <Autocomplete
            options={options}
            value={item}
            disabled={!reportsAll}
            loading={loadingOptions}
            filterOptions={(x) => x}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            getOptionLabel={(o) => o.label}
            noOptionsText={translate("sia.reporting.no_options")}
            onChange={(_, value) => {
              setItem(value);
              setErrors((e) => ({ ...e, id: undefined }));
            }}
            onInputChange={(_, value, reason) => reason === "input" && setSearch(value)}
            renderInput={(params) => (
              <TextField
                {...params}
                label={translate("sia.reporting.item", { kind: kindLabel.toLowerCase() })}
                error={Boolean(errors.id)}
                size="small"
              />
            )}
          />
          <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
            <SiaDatePicker
              label={translate("sia.reporting.start_date")}
              value={startDate}
              onChange={setStartDate}
              maxDate={today}
              error={Boolean(errors.start_date)}
            />
            <SiaDatePicker
              label={translate("sia.reporting.end_date")}
              value={endDate}
              onChange={setEndDate}
              maxDate={today}
              error={Boolean(errors.end_date)}
            />
          </Stack>
          {exclusion && item && (
            <FormControl component="fieldset">
              <FormLabel component="legend">
                {translate(exclusion === "clients" ? "sia.reporting.exclude_clients" : "sia.reporting.exclude_employees")}
              </FormLabel>
              {members === null ? (
                <CircularProgress size={20} />
              ) : members.length === 0 ? (
                <Typography variant="body2">{translate("sia.reporting.no_members")}</Typography>
              ) : (
                <FormGroup sx={{ maxHeight: 260, overflow: "auto" }}>
                  {members.map((m) => (
                    <FormControlLabel
                      key={m.id}
                      label={m.label}
                      control={
                        <Checkbox
                          checked={excluded.includes(m.id)}
                          onChange={(e) =>
                            setExcluded((ids) => (e.target.checked ? [...ids, m.id] : ids.filter((id) => id !== m.id)))
                          }
                        />
                      }
                    />
                  ))}
                </FormGroup>
              )}
            </FormControl>
          )}
          <FormControlLabel
            label={translate("sia.reporting.approved_only")}
            control={<Checkbox checked={approvedOnly} onChange={(e) => setApprovedOnly(e.target.checked)} />}
          />
          {messages.length > 0 && (
            <Alert severity="error" role="alert">
              {[...new Set(messages)].map((m) => (
                <div key={m}>{m}</div>
              ))}
            </Alert>
          )}
          <Box>
            <Button
              variant="contained"
              startIcon={progress === null ? <DownloadIcon /> : <CircularProgress size={16} color="inherit" />}
              disabled={progress !== null || (!reportsAll && !ownEmployee)}
              onClick={download}
            >
              {translate("sia.reporting.download")}
            </Button>
          </Box>
          {progress !== null && (
            <Box role="status">
              <LinearProgress />
              <Typography variant="body2" sx={{ mt: 1 }}>
                {translate("sia.reporting.downloading", { size: sizeText(progress) })}
              </Typography>
            </Box>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}
