/**
 * «Avisos» (SPEC §7 POST notifications): an administrator sends a notice to everyone or to one
 * notifiable workspace; it appears in each recipient's bell and is pushed to their subscribed devices.
 */
import { Box, Button, Card, CardContent, MenuItem, Stack, TextField, Typography } from "@mui/material";
import { useEffect, useState } from "react";
import { useDataProvider, useNotify, usePermissions, useTranslate } from "react-admin";
import { noticeSchema } from "../../core/schemas/board";
import type { SessionUser } from "../../core/session";
import type { SiaDataProvider } from "../../dataProvider";
import { announceBoardActivity } from "../board/realtime";
import { AdminPageGuard } from "../common/AdminPage";

interface Workspace {
  id: number;
  name: string;
  is_notifiable: boolean;
}

/** The notice's length limit, read from the schema the route parses with. */
const NOTICE_MAX = noticeSchema.shape.message.maxLength ?? 0;

function NoticeForm() {
  const { permissions: me } = usePermissions<SessionUser | null>();
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<SiaDataProvider>();
  const [message, setMessage] = useState("");
  const [author, setAuthor] = useState("");
  const [workspaceId, setWorkspaceId] = useState<string>("");
  const [workspaces, setWorkspaces] = useState<Workspace[]>([]);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    dataProvider
      .getList<Workspace>("workspaces", {
        pagination: { page: 1, perPage: 1000 },
        sort: { field: "name", order: "ASC" },
        filter: {},
      })
      .then((r) => setWorkspaces(r.data.filter((w) => w.is_notifiable)))
      .catch(() => setWorkspaces([]));
  }, [dataProvider]);
  useEffect(() => {
    if (me?.name) setAuthor((a) => a || me.name);
  }, [me]);

  const send = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const result = await dataProvider.sendNotice({
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
    <Card variant="outlined">
      <CardContent>
        <Typography variant="h6" gutterBottom>
          {translate("sia.notices.heading")}
        </Typography>
        <Stack spacing={2}>
          <TextField
            label={translate("sia.notices.message")}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            multiline
            minRows={3}
            fullWidth
            error={Boolean(error)}
            helperText={error ?? translate("sia.notices.counter", { length: message.trim().length, max: NOTICE_MAX })}
          />
          <TextField
            label={translate("resources.notifications.fields.author_name")}
            value={author}
            onChange={(e) => setAuthor(e.target.value)}
            fullWidth
          />
          <TextField
            select
            label={translate("sia.notices.recipients")}
            value={workspaceId}
            onChange={(e) => setWorkspaceId(e.target.value)}
            helperText={translate("sia.notices.recipients_help")}
            fullWidth
          >
            <MenuItem value="">{translate("sia.notices.everyone")}</MenuItem>
            {workspaces.map((w) => (
              <MenuItem key={w.id} value={String(w.id)}>
                {w.name}
              </MenuItem>
            ))}
          </TextField>
          <Box>
            <Button variant="contained" onClick={() => void send()} disabled={busy || message.trim().length === 0}>
              {translate("sia.notices.send")}
            </Button>
          </Box>
        </Stack>
      </CardContent>
    </Card>
  );
}

export function NoticesPage() {
  return (
    <AdminPageGuard resource="notifications" action="create" title="sia.notices.title">
      <Box sx={{ p: 2, maxWidth: 720 }}>
        <NoticeForm />
      </Box>
    </AdminPageGuard>
  );
}

export default NoticesPage;
