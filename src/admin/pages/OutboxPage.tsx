/**
 * /app/outbox (administrators): the scheduled jobs with their last runs and a button to run each now,
 * and the local outbox (the .eml files the mail port wrote), each message opened in a dialog.
 */
import {
  Alert,
  Button,
  Card,
  CardContent,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableRow,
  Typography,
} from "@mui/material";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Confirm, useDataProvider, useNotify, useTranslate } from "react-admin";
import type { JobView, SiaDataProvider } from "../../dataProvider";
import { AdminPageGuard, errorText, QueryState, TableHeader } from "../common/AdminPage";
import { formatDateTime } from "../common/AuditTrail";
import { forceConfirmationKey } from "./forceConfirmation";

function JobsCard() {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider<SiaDataProvider>();
  const [forcing, setForcing] = useState<JobView | null>(null);
  const jobs = useQuery({ queryKey: ["sia", "jobs"], queryFn: () => dataProvider.listJobs() });
  const run = useMutation({
    mutationFn: ({ name, force }: { name: string; force: boolean }) => dataProvider.runJob(name, force),
    onSuccess: (answer) => {
      notify(answer.message, { type: answer.status === "done" ? "success" : "info", multiLine: true });
      void queryClient.invalidateQueries({ queryKey: ["sia"] });
    },
    onError: (error) => notify(errorText(error), { type: "error" }),
  });
  return (
    <Card sx={{ mt: 2 }}>
      <CardContent>
        <Typography variant="h6" component="h2">
          {translate("sia.outbox.jobs")}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {translate("sia.outbox.schedule_note")}
        </Typography>
        <QueryState query={jobs}>
          {(jobList) => (
            <Table size="small" aria-label={translate("sia.outbox.jobs")}>
              <TableHeader labels={["sia.outbox.job", "sia.outbox.period", "sia.outbox.last_run"]} actions />
              <TableBody>
                {jobList.map((job) => {
                  const last = job.runs[0];
                  return (
                    <TableRow key={job.name} data-testid={`job-${job.name}`}>
                      <TableCell>{job.label}</TableCell>
                      <TableCell>{job.current_period}</TableCell>
                      <TableCell>
                        {last
                          ? `${formatDateTime(last.ran_at)} · ${last.period_key} · ${last.message ?? ""} (${translate(
                              last.trigger === "manual" ? "sia.outbox.manual" : "sia.outbox.scheduled",
                            )})`
                          : translate("sia.outbox.never")}
                      </TableCell>
                      <TableCell align="right">
                        <Stack direction="row" spacing={1} justifyContent="flex-end">
                          <Button
                            variant="contained"
                            size="small"
                            disabled={run.isPending}
                            onClick={() => run.mutate({ name: job.name, force: false })}
                            aria-label={`${translate("sia.outbox.run_now")}: ${job.label}`}
                          >
                            {translate("sia.outbox.run_now")}
                          </Button>
                          <Button
                            variant="outlined"
                            size="small"
                            disabled={run.isPending}
                            onClick={() => setForcing(job)}
                            aria-label={`${translate("sia.outbox.force")}: ${job.label}`}
                          >
                            {translate("sia.outbox.force")}
                          </Button>
                        </Stack>
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          )}
        </QueryState>
        <Confirm
          isOpen={forcing !== null}
          title={translate("sia.outbox.force_title", { job: forcing?.label ?? "" })}
          content={translate(forceConfirmationKey(forcing?.name ?? ""), { period: forcing?.current_period ?? "" })}
          onConfirm={() => {
            if (forcing) run.mutate({ name: forcing.name, force: true });
            setForcing(null);
          }}
          onClose={() => setForcing(null)}
        />
      </CardContent>
    </Card>
  );
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function BackupsCard() {
  const translate = useTranslate();
  const notify = useNotify();
  const queryClient = useQueryClient();
  const dataProvider = useDataProvider<SiaDataProvider>();
  const backups = useQuery({ queryKey: ["sia", "backups"], queryFn: () => dataProvider.listBackups() });
  const backupNow = useMutation({
    mutationFn: () => dataProvider.backupNow(),
    onSuccess: (answer) => {
      notify(answer.message, { type: "success" });
      void queryClient.invalidateQueries({ queryKey: ["sia"] });
    },
    onError: (error) => notify(errorText(error), { type: "error" }),
  });
  return (
    <Card sx={{ mt: 2 }}>
      <CardContent>
        <Stack direction="row" justifyContent="space-between" alignItems="center">
          <Typography variant="h6" component="h2">
            {translate("sia.outbox.backups")}
          </Typography>
          <Button variant="contained" size="small" disabled={backupNow.isPending} onClick={() => backupNow.mutate()}>
            {translate("sia.outbox.backup_now")}
          </Button>
        </Stack>
        <QueryState query={backups}>
          {(list) => (
            <>
              <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
                {translate("sia.outbox.backup_note", { keep: list.meta.keep })}
              </Typography>
              {list.backups.length === 0 ? (
                <Typography color="text.secondary">{translate("sia.outbox.backup_empty")}</Typography>
              ) : (
                <Table size="small" aria-label={translate("sia.outbox.backups")}>
                  <TableHeader labels={["sia.outbox.backup_file", "sia.outbox.date", "sia.outbox.backup_size"]} actions />
                  <TableBody>
                    {list.backups.map((b) => (
                      <TableRow key={b.name} data-testid={`backup-${b.name}`}>
                        <TableCell>
                          {b.name}
                          {b.manual && (
                            <Typography component="span" variant="body2" color="text.secondary" sx={{ ml: 1 }}>
                              {translate("sia.outbox.backup_manual")}
                            </Typography>
                          )}
                        </TableCell>
                        <TableCell>{formatDateTime(b.created_at)}</TableCell>
                        <TableCell>{megabytes(b.size)}</TableCell>
                        <TableCell align="right">
                          <Button component="a" size="small" href={`/api/v1/backups/${encodeURIComponent(b.name)}`} download>
                            {translate("sia.outbox.backup_download")}
                          </Button>
                        </TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              )}
            </>
          )}
        </QueryState>
      </CardContent>
    </Card>
  );
}

function MessageDialog({ id, onClose }: { id: string; onClose: () => void }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<SiaDataProvider>();
  const message = useQuery({ queryKey: ["sia", "outbox", id], queryFn: () => dataProvider.getOutboxMessage(id) });
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth aria-labelledby="outbox-message-title">
      <DialogTitle id="outbox-message-title">{message.data?.subject ?? translate("sia.outbox.subject")}</DialogTitle>
      <DialogContent dividers>
        <QueryState query={message}>
          {(mail) => (
            <Stack spacing={1}>
              <Typography variant="body2">
                <strong>{translate("sia.outbox.date")}:</strong> {formatDateTime(mail.date)}
              </Typography>
              <Typography variant="body2">
                <strong>{translate("sia.outbox.from")}:</strong> {mail.from}
              </Typography>
              <Typography variant="body2">
                <strong>{translate("sia.outbox.to")}:</strong> {mail.to}
              </Typography>
              {mail.attachments.length > 0 && (
                <Typography variant="body2">
                  <strong>{translate("sia.outbox.attachments")}:</strong> {mail.attachments.map((a) => a.filename).join(", ")}
                </Typography>
              )}
              <Typography
                component="pre"
                data-testid="outbox-message-text"
                sx={{ whiteSpace: "pre-wrap", fontFamily: "inherit", mt: 2 }}
              >
                {mail.text}
              </Typography>
            </Stack>
          )}
        </QueryState>
      </DialogContent>
      <DialogActions>
        <Button component="a" href={`/api/v1/outbox/${encodeURIComponent(id)}/eml`} download>
          {translate("sia.outbox.download")}
        </Button>
        <Button onClick={onClose}>{translate("sia.outbox.close")}</Button>
      </DialogActions>
    </Dialog>
  );
}

function OutboxCard() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<SiaDataProvider>();
  const [open, setOpen] = useState<string | null>(null);
  const outbox = useQuery({ queryKey: ["sia", "outbox"], queryFn: () => dataProvider.listOutbox(1, 100) });
  return (
    <Card sx={{ mt: 2 }}>
      <CardContent>
        <Typography variant="h6" component="h2">
          {translate("sia.outbox.messages")}
        </Typography>
        <QueryState query={outbox}>
          {(box) => (
            <>
              {box.meta.adapter === "smtp" && (
                <Alert severity="info" sx={{ my: 1 }}>
                  {translate("sia.outbox.smtp_note")}
                </Alert>
              )}
              {box.outbox.length === 0 ? (
                <Typography color="text.secondary">{translate("sia.outbox.empty")}</Typography>
              ) : (
                <Table size="small" aria-label={translate("sia.outbox.messages")}>
                  <TableHeader labels={["sia.outbox.date", "sia.outbox.to", "sia.outbox.subject", "sia.outbox.attachments"]} />
                  <TableBody>
                    {box.outbox.map((m) => (
                      <TableRow key={m.id} hover sx={{ cursor: "pointer" }} onClick={() => setOpen(m.id)}>
                        <TableCell>{formatDateTime(m.date)}</TableCell>
                        <TableCell>{m.to}</TableCell>
                        <TableCell>
                          <Button variant="text" size="small" sx={{ textTransform: "none", p: 0 }} onClick={() => setOpen(m.id)}>
                            {m.subject}
                          </Button>
                        </TableCell>
                        <TableCell>{m.attachments.map((a) => a.filename).join(", ")}</TableCell>
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              )}
            </>
          )}
        </QueryState>
        {open && <MessageDialog id={open} onClose={() => setOpen(null)} />}
      </CardContent>
    </Card>
  );
}

export function OutboxPage() {
  return (
    <AdminPageGuard resource="outbox" action="list" title="sia.outbox.title">
      <JobsCard />
      <BackupsCard />
      <OutboxCard />
    </AdminPageGuard>
  );
}
