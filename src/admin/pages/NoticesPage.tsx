/**
 * «Avisos» (issue 9, SPEC §7 POST notifications): an administrator sends a notice to everyone or to one
 * notifiable workspace; it appears in each recipient's bell and is pushed to their subscribed devices.
 */
import { Alert, Box, Button, Card, CardContent, MenuItem, Stack, TextField, Typography } from "@mui/material";
import { useEffect, useState } from "react";
import { Title, useNotify, usePermissions } from "react-admin";
import { canAccess } from "../../core/permissions";
import type { SessionUser } from "../../core/session";
import { apiFetch } from "../../dataProvider/http";
import { boardApi } from "../board/api";
import { announceBoardActivity } from "../board/realtime";

interface Workspace {
  id: number;
  name: string;
  is_notifiable: boolean;
}

export function NoticesPage() {
  const { permissions: me } = usePermissions<SessionUser | null>();
  const notify = useNotify();
  const [message, setMessage] = useState("");
  const [author, setAuthor] = useState("");
  const [workspaceId, setWorkspaceId] = useState<string>("");
  const [workspaces, setWorkspaces] = useState<Workspace[]>([]);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const allowed = canAccess({ user: me, resource: "notifications", action: "create" });

  useEffect(() => {
    if (!allowed) return;
    apiFetch<{ workspaces: Workspace[] }>("workspaces", { query: { per_page: "all" } })
      .then((r) => setWorkspaces(r.workspaces.filter((w) => w.is_notifiable)))
      .catch(() => setWorkspaces([]));
  }, [allowed]);
  useEffect(() => {
    if (me?.name) setAuthor((a) => a || me.name);
  }, [me]);

  if (!me) return null;
  if (!allowed) return <Alert severity="warning">Solo los administradores envían avisos.</Alert>;

  const send = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const result = await boardApi.sendNotice({
        message,
        author_name: author,
        workspace_id: workspaceId ? Number(workspaceId) : null,
      });
      notify(result.message, { type: "success" });
      setMessage("");
      announceBoardActivity();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Box sx={{ p: 2, maxWidth: 720 }}>
      <Title title="Avisos" />
      <Card variant="outlined">
        <CardContent>
          <Typography variant="h6" gutterBottom>
            Enviar un aviso
          </Typography>
          <Stack spacing={2}>
            <TextField
              label="Aviso"
              value={message}
              onChange={(e) => setMessage(e.target.value)}
              multiline
              minRows={3}
              fullWidth
              error={Boolean(error)}
              helperText={error ?? `${message.trim().length}/1000`}
            />
            <TextField label="Autor" value={author} onChange={(e) => setAuthor(e.target.value)} fullWidth />
            <TextField
              select
              label="Destinatarios"
              value={workspaceId}
              onChange={(e) => setWorkspaceId(e.target.value)}
              helperText="Solo se listan los espacios de trabajo con notificaciones activas."
              fullWidth
            >
              <MenuItem value="">Todos los usuarios</MenuItem>
              {workspaces.map((w) => (
                <MenuItem key={w.id} value={String(w.id)}>
                  {w.name}
                </MenuItem>
              ))}
            </TextField>
            <Box>
              <Button variant="contained" onClick={() => void send()} disabled={busy || message.trim().length === 0}>
                Enviar aviso
              </Button>
            </Box>
          </Stack>
        </CardContent>
      </Card>
    </Box>
  );
}

export default NoticesPage;
