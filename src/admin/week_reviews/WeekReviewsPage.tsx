/**
 * /app/week_reviews: the weeks the people of the reviewer's workspaces sent to review (all of them for an
 * administrator, never the reviewer's own), and those already approved or returned. Each row has the week's
 * hours against what was expected, by group, and the working days short; «Ver semana» opens it read-only in
 * the calendar, with its history. Approve one or many at once, or return one with a reason. A desktop gets a
 * table; a phone one card per week.
 */
import SendIcon from "@mui/icons-material/AssignmentReturn";
import CheckIcon from "@mui/icons-material/Check";
import VisibilityIcon from "@mui/icons-material/Visibility";
import {
  Alert,
  Box,
  Button,
  Card,
  CardActions,
  CardContent,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
  useMediaQuery,
} from "@mui/material";
import type { Theme } from "@mui/material/styles";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useId, useState } from "react";
import { useDataProvider, useNotify, useTranslate } from "react-admin";
import { formatDate, formatDateTime } from "../../core/week";
import type { ReviewState, SiaDataProvider, WeekReview, WeekReviewDetail } from "../../dataProvider";
import { AdminPageGuard, errorText, QueryState } from "../common/AdminPage";
import { ReasonDialog } from "../common/ReasonDialog";

// FullCalendar loads only when a week is opened.
const ReviewCalendar = lazy(() => import("./ReviewCalendar"));

const REVIEWS_KEY = ["sia", "week_reviews", "list"] as const;
const SUMMARY_KEY = ["sia", "notifications", "summary"] as const;
const STATES: ReviewState[] = ["submitted", "approved", "returned"];
const GROUPS = ["project", "support", "internal", "vacation"] as const;

const hours = (h: number) => `${Number.isInteger(h) ? h : h.toFixed(2)} h`;
/** «lun 12/01»: a day short enough for a column of days. */
const SHORT_DAY = new Intl.DateTimeFormat("es-MX", { weekday: "short", timeZone: "UTC" });
const shortDay = (date: string) =>
  `${SHORT_DAY.format(new Date(`${date}T12:00:00Z`)).replace(".", "")} ${formatDate(date).slice(0, 5)}`;

/** Each step of the week's review: who, when, and the reason of a return. */
function History({ steps }: { steps: WeekReviewDetail["history"] }) {
  const translate = useTranslate();
  const headingId = useId();
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography id={headingId} variant="subtitle1" component="h2">
        {translate("sia.reviews.history")}
      </Typography>
      <Box component="ol" sx={{ m: 0, pl: 3 }} data-testid="review-history">
        {steps.map((step) => (
          <li key={`${step.at}-${step.state}`}>
            <Typography variant="body2" sx={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
              {formatDateTime(step.at)} ·{" "}
              {translate(`sia.reviews.steps.${step.state}`, { name: step.by_name ?? translate("sia.reviews.system") })}
              {step.comment ? ` — ${step.comment}` : ""}
            </Typography>
          </li>
        ))}
      </Box>
    </Box>
  );
}

function WeekOpen({ review, onClose }: { review: WeekReview; onClose(): void }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<SiaDataProvider>();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down("sm"));
  const titleId = useId();
  const detail = useQuery({
    queryKey: ["sia", "week_reviews", "detail", review.id],
    queryFn: ({ signal }) => dataProvider.weekReview(review.id, signal),
  });
  return (
    <Dialog open onClose={onClose} aria-labelledby={titleId} fullWidth maxWidth="lg" fullScreen={phone}>
      <DialogTitle id={titleId}>
        {review.employee_name} ·{" "}
        {translate("sia.reviews.week_of", { from: formatDate(review.starts_on), to: formatDate(review.ends_on) })}
      </DialogTitle>
      <DialogContent>
        <QueryState query={detail}>
          {(data) =>
            data.activities.length === 0 ? (
              <Typography>{translate("sia.reviews.no_activities")}</Typography>
            ) : (
              <Suspense fallback={null}>
                <ReviewCalendar weekStart={review.starts_on} activities={data.activities} phone={phone} />
              </Suspense>
            )
          }
        </QueryState>
      </DialogContent>
      {detail.data && detail.data.history.length > 0 && (
        <DialogContent dividers>
          <History steps={detail.data.history} />
        </DialogContent>
      )}
      <DialogActions>
        <Button onClick={onClose}>{translate("sia.reviews.close")}</Button>
      </DialogActions>
    </Dialog>
  );
}

/** Texts one under the other in a cell (the week's two dates, the days short). */
const lines = (texts: string[]) =>
  texts.map((text) => (
    <Box component="span" key={text} sx={{ display: "block", whiteSpace: "nowrap" }}>
      {text}
    </Box>
  ));

function ReviewsScreen() {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<SiaDataProvider>();
  const client = useQueryClient();
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down("md"));
  const [state, setState] = useState<ReviewState>("submitted");
  const pending = state === "submitted";
  const query = useQuery({
    queryKey: [...REVIEWS_KEY, state],
    queryFn: ({ signal }) => dataProvider.weekReviews(state, null, signal),
  });
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [returning, setReturning] = useState<WeekReview | null>(null);
  const [open, setOpen] = useState<WeekReview | null>(null);
  const [busy, setBusy] = useState(false);

  const reload = async () => {
    await Promise.all([client.invalidateQueries({ queryKey: REVIEWS_KEY }), client.invalidateQueries({ queryKey: SUMMARY_KEY })]);
  };
  const act = async (work: () => Promise<{ message: string }>) => {
    setBusy(true);
    try {
      notify((await work()).message, { type: "success" });
      setSelected(new Set());
    } catch (error) {
      notify(errorText(error), { type: "error" });
    } finally {
      setBusy(false);
      await reload();
    }
  };
  const approve = (rows: WeekReview[]) =>
    act(() => dataProvider.approveWeeks(rows.map((r) => ({ id: r.id, lock_version: r.lock_version }))));

  const rows = query.data?.week_reviews ?? [];
  const chosen = rows.filter((r) => selected.has(r.id));
  const toggle = (id: number) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const allChosen = rows.length > 0 && chosen.length === rows.length;
  const shortText = (r: WeekReview) =>
    r.figures.short_days.length
      ? r.figures.short_days.map((d) => `${shortDay(d.date)} · ${hours(d.missing)}`)
      : [translate("sia.reviews.none_short")];
  const total = (r: WeekReview) =>
    translate("sia.reviews.total_of", { logged: hours(r.figures.logged_hours), expected: hours(r.figures.expected_hours) });
  const week = (r: WeekReview) => `${formatDate(r.starts_on)} – ${formatDate(r.ends_on)}`;
  const reviewedText = (r: WeekReview) =>
    r.auto_approved
      ? translate("sia.reviews.reviewed_auto", { when: formatDateTime(r.reviewed_at) })
      : translate("sia.reviews.reviewed", { name: r.reviewer_name ?? "—", when: formatDateTime(r.reviewed_at) });
  // Two weeks of one person read apart: each control names the week too.
  const named = (r: WeekReview) => ({ name: r.employee_name, from: formatDate(r.starts_on) });
  const columns = [
    "person",
    "week",
    "total",
    ...GROUPS,
    "short",
    ...(pending ? [] : ["reviewed"]),
    ...(state === "returned" ? ["reason"] : []),
    "actions",
  ];

  const actions = (r: WeekReview) => (
    <>
      <Button
        size="small"
        startIcon={<VisibilityIcon />}
        onClick={() => setOpen(r)}
        aria-label={translate("sia.reviews.view_one", named(r))}
      >
        {translate("sia.reviews.view")}
      </Button>
      {pending && (
        <Button
          size="small"
          color="success"
          startIcon={<CheckIcon />}
          disabled={busy}
          onClick={() => void approve([r])}
          aria-label={translate("sia.reviews.approve_one", named(r))}
        >
          {translate("sia.reviews.approve")}
        </Button>
      )}
      {pending && (
        <Button
          size="small"
          color="warning"
          startIcon={<SendIcon />}
          disabled={busy}
          onClick={() => setReturning(r)}
          aria-label={translate("sia.reviews.return_one", named(r))}
        >
          {translate("sia.reviews.return")}
        </Button>
      )}
    </>
  );
  const rowCheckbox = (r: WeekReview) => (
    <Checkbox
      checked={selected.has(r.id)}
      onChange={() => toggle(r.id)}
      slotProps={{ input: { "aria-label": translate("sia.reviews.select_row", named(r)) } }}
    />
  );

  return (
    <Box sx={{ mt: 2 }}>
      <Typography variant="h5" component="h1" gutterBottom>
        {translate("sia.reviews.title")}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2, maxWidth: "60rem" }}>
        {translate("sia.reviews.intro")}
      </Typography>
      <ToggleButtonGroup
        exclusive
        size="small"
        value={state}
        onChange={(_event, next: ReviewState | null) => {
          if (!next) return;
          setState(next);
          setSelected(new Set());
        }}
        aria-label={translate("sia.reviews.states.label")}
        sx={{ mb: 2, flexWrap: "wrap" }}
      >
        {STATES.map((s) => (
          <ToggleButton key={s} value={s}>
            {translate(`sia.reviews.states.${s}`)}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      <QueryState query={query}>
        {() =>
          rows.length === 0 ? (
            <Alert severity="info" data-testid="reviews-empty">
              {translate(pending ? "sia.reviews.empty" : `sia.reviews.empty_${state}`)}
            </Alert>
          ) : (
            <Stack spacing={2}>
              {pending && (
                <Stack direction="row" spacing={2} sx={{ alignItems: "center", flexWrap: "wrap" }}>
                  <FormControlLabel
                    control={
                      <Checkbox
                        checked={allChosen}
                        indeterminate={chosen.length > 0 && !allChosen}
                        onChange={() => setSelected(allChosen ? new Set() : new Set(rows.map((r) => r.id)))}
                      />
                    }
                    label={translate("sia.reviews.select_all")}
                  />
                  <Button
                    variant="contained"
                    color="success"
                    startIcon={<CheckIcon />}
                    disabled={busy || chosen.length === 0}
                    onClick={() => void approve(chosen)}
                  >
                    {translate("sia.reviews.approve_selected", { count: chosen.length })}
                  </Button>
                </Stack>
              )}
              {phone ? (
                rows.map((r) => (
                  <Card key={r.id} variant="outlined" component="section" aria-label={r.employee_name} data-testid="review-card">
                    <CardContent>
                      {pending ? (
                        <FormControlLabel
                          control={rowCheckbox(r)}
                          label={
                            <Typography variant="subtitle1" component="span">
                              {r.employee_name}
                            </Typography>
                          }
                        />
                      ) : (
                        <Typography variant="subtitle1" component="h2">
                          {r.employee_name}
                        </Typography>
                      )}
                      <Typography variant="body2">
                        {week(r)}
                        {r.workspace_name ? ` · ${r.workspace_name}` : ""}
                      </Typography>
                      <Typography variant="body2">
                        {translate("sia.reviews.columns.total")}: {total(r)}
                      </Typography>
                      <Typography variant="body2">
                        {GROUPS.map((g) => `${translate(`sia.reviews.columns.${g}`)} ${hours(r.figures.groups[g])}`).join(" · ")}
                      </Typography>
                      <Typography variant="body2">
                        {translate("sia.reviews.columns.short")}: {shortText(r).join("; ")}
                      </Typography>
                      {!pending && (
                        <Typography variant="body2">
                          {translate("sia.reviews.columns.reviewed")}: {reviewedText(r)}
                        </Typography>
                      )}
                      {state === "returned" && r.return_reason && (
                        <Typography variant="body2" sx={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
                          {translate("sia.reviews.columns.reason")}: {r.return_reason}
                        </Typography>
                      )}
                    </CardContent>
                    <CardActions sx={{ flexWrap: "wrap" }}>{actions(r)}</CardActions>
                  </Card>
                ))
              ) : (
                <Box sx={{ overflowX: "auto", maxWidth: "100%" }}>
                  <Table size="small" aria-label={translate("sia.reviews.title")}>
                    <TableHead>
                      <TableRow>
                        {pending && <TableCell padding="checkbox" />}
                        {columns.map((c) => (
                          <TableCell key={c}>{translate(`sia.reviews.columns.${c}`)}</TableCell>
                        ))}
                      </TableRow>
                    </TableHead>
                    <TableBody>
                      {rows.map((r) => (
                        <TableRow key={r.id} data-testid="review-row">
                          {pending && <TableCell padding="checkbox">{rowCheckbox(r)}</TableCell>}
                          <TableCell component="th" scope="row">
                            {r.employee_name}
                            {r.workspace_name && (
                              <Typography variant="caption" component="div" color="text.secondary">
                                {r.workspace_name}
                              </Typography>
                            )}
                          </TableCell>
                          <TableCell>{lines([formatDate(r.starts_on), formatDate(r.ends_on)])}</TableCell>
                          <TableCell sx={{ whiteSpace: "nowrap" }}>{total(r)}</TableCell>
                          {GROUPS.map((g) => (
                            <TableCell key={g} sx={{ whiteSpace: "nowrap" }}>
                              {hours(r.figures.groups[g])}
                            </TableCell>
                          ))}
                          <TableCell>{lines(shortText(r))}</TableCell>
                          {!pending && <TableCell>{reviewedText(r)}</TableCell>}
                          {state === "returned" && (
                            <TableCell sx={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere", maxWidth: "16rem" }}>
                              {r.return_reason}
                            </TableCell>
                          )}
                          <TableCell>
                            <Stack sx={{ alignItems: "flex-start" }}>{actions(r)}</Stack>
                          </TableCell>
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                </Box>
              )}
            </Stack>
          )
        }
      </QueryState>
      {open && <WeekOpen review={open} onClose={() => setOpen(null)} />}
      <ReasonDialog
        open={returning !== null}
        title="sia.reviews.return_title"
        text={
          returning
            ? translate("sia.reviews.return_ask", {
                name: returning.employee_name,
                from: formatDate(returning.starts_on),
                to: formatDate(returning.ends_on),
              })
            : ""
        }
        confirm="sia.reviews.return"
        busy={busy}
        onConfirm={(reason) => {
          const r = returning;
          setReturning(null);
          if (r) void act(() => dataProvider.returnWeek(r.id, reason, r.lock_version));
        }}
        onClose={() => setReturning(null)}
      />
    </Box>
  );
}

export function WeekReviewsPage() {
  return (
    <AdminPageGuard resource="week_reviews" action="list" title="sia.reviews.title">
      <ReviewsScreen />
    </AdminPageGuard>
  );
}
