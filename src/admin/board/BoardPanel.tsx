/**
 * «Tablero» of a project: the members' messages, oldest to newest, with older pages on demand,
 * read receipts («Visto por …»), a composer with a live 500-character counter and @-autocomplete of the
 * project's users, and live updates through the realtime stream.
 */
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  List,
  ListItemButton,
  ListItemText,
  Paper,
  Popper,
  Stack,
  TextField,
  Typography,
} from "@mui/material";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { type RaRecord, useDataProvider, usePermissions, useRecordContext, useTranslate } from "react-admin";
import { boardMessages } from "../../core/messages";
import { BOARD_MESSAGE_MAX, BOARD_MESSAGE_MAX_UNITS, boardMessageSchema, graphemeCount } from "../../core/schemas/board";
import type { SessionUser } from "../../core/session";
import { formatDateTime } from "../../core/week";
import type { BoardMember, BoardMessage, SiaDataProvider } from "../../dataProvider";
import { MessageText } from "./MessageText";
import { announceBoardActivity, useRealtime } from "./realtime";

/** The @word being typed just before the cursor, if any. */
function mentionQuery(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const match = /(^|[^\p{L}\p{N}_.@-])@([\p{L}\p{N}._-]*)$/u.exec(before);
  if (!match) return null;
  return { start: caret - match[2].length - 1, query: match[2].toLowerCase() };
}

function SeenBy({ message }: { message: BoardMessage }) {
  const translate = useTranslate();
  const readers = message.seen_by.filter((s) => s.user_id !== message.user_id);
  if (readers.length === 0) return null;
  return (
    <Typography variant="caption" color="text.secondary" data-testid="board-seen-by">
      {translate("sia.board.seen_by", { names: readers.map((r) => r.name).join(", ") })}
    </Typography>
  );
}

export function BoardPanel() {
  const project = useRecordContext<RaRecord>();
  const { permissions: me } = usePermissions<SessionUser | null>();
  const translate = useTranslate();
  const dataProvider = useDataProvider<SiaDataProvider>();
  // Effects read it here: react-admin's hook answers a new object when the page moves, which is no reason to reload.
  const api = useRef(dataProvider);
  api.current = dataProvider;
  const projectId = Number(project?.id);
  // The project says whether the user reads its board (board_member): nothing is asked that would be refused.
  const outsider = project?.board_member === false;
  const [messages, setMessages] = useState<BoardMessage[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [members, setMembers] = useState<BoardMember[]>([]);
  const [denied, setDenied] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const [text, setText] = useState("");
  const [caret, setCaret] = useState(0);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const composer = useRef<HTMLDivElement>(null);
  const lastRead = useRef(0);

  const markRead = useCallback(
    (list: BoardMessage[]) => {
      const last = list[list.length - 1];
      if (!last || !me || last.id <= lastRead.current) return;
      lastRead.current = last.id;
      if (list.every((m) => m.user_id === me.id || m.seen_by.some((s) => s.user_id === me.id))) return;
      api.current
        .markBoardRead(projectId, last.id)
        .then(() => announceBoardActivity())
        .catch(() => {});
    },
    [projectId, me],
  );

  useEffect(() => {
    if (!projectId) return;
    setDenied(outsider);
    if (outsider) {
      setLoaded(true);
      return;
    }
    let alive = true;
    Promise.all([api.current.boardHistory(projectId), api.current.boardMembers(projectId)])
      .then(([page, people]) => {
        if (!alive) return;
        setMessages(page.messages);
        setHasMore(page.has_more);
        setMembers(people.members);
        setLoaded(true);
      })
      .catch((e: { status?: number }) => {
        if (alive && e?.status === 403) setDenied(true);
        setLoaded(true);
      });
    return () => {
      alive = false;
    };
  }, [projectId, outsider]);

  useEffect(() => {
    if (loaded) markRead(messages);
  }, [loaded, messages, markRead]);

  useEffect(() => {
    if (loaded && new URLSearchParams(window.location.search).get("tab") === "board")
      document.getElementById("tablero")?.scrollIntoView();
  }, [loaded]);

  useRealtime((event) => {
    if (event.type === "message" && event.data.project_id === projectId) {
      setMessages((list) =>
        list.some((m) => m.id === event.data.id) ? list : [...list, event.data].sort((a, b) => a.id - b.id),
      );
      announceBoardActivity();
    } else if (event.type === "receipt" && event.data.project_id === projectId) {
      const { user_id, name, up_to } = event.data;
      setMessages((list) =>
        list.map((m) =>
          m.id <= up_to && m.user_id !== user_id && !m.seen_by.some((s) => s.user_id === user_id)
            ? { ...m, seen_by: [...m.seen_by, { user_id, name, read_at: new Date().toISOString() }] }
            : m,
        ),
      );
    } else if (event.type === "notification") announceBoardActivity();
  }, loaded && !denied);

  const loadOlder = async () => {
    const first = messages[0];
    if (!first) return;
    const page = await dataProvider.boardHistory(projectId, first.id);
    setMessages((list) => [...page.messages, ...list]);
    setHasMore(page.has_more);
  };

  const query = mentionQuery(text, caret);
  const suggestions = useMemo(
    () =>
      query
        ? members
            .filter((m) => m.id !== me?.id && (m.handle.startsWith(query.query) || m.name.toLowerCase().includes(query.query)))
            .slice(0, 6)
        : [],
    [query, members, me],
  );

  const insertMention = (member: BoardMember) => {
    if (!query) return;
    const next = `${text.slice(0, query.start)}@${member.handle} ${text.slice(caret)}`;
    const position = query.start + member.handle.length + 2;
    setText(next);
    setCaret(position);
    requestAnimationFrame(() => {
      input.current?.focus();
      input.current?.setSelectionRange(position, position);
    });
  };

  const send = async () => {
    if (!text.trim()) return;
    // The route's own rule (src/core/schemas/board.ts): trimmed, 1–500 characters, its Spanish message.
    const parsed = boardMessageSchema.safeParse({ body: text });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    const { body } = parsed.data;
    setBusy(true);
    setError(undefined);
    try {
      const { message } = await dataProvider.postBoardMessage(projectId, body);
      setMessages((list) => (list.some((m) => m.id === message.id) ? list : [...list, message]));
      setText("");
      setCaret(0);
      lastRead.current = Math.max(lastRead.current, message.id);
    } catch (e) {
      // A refusal of the message itself says only why (its field is this box), never «Error en los parametros».
      const field = (e as { body?: { errors?: { body?: string } } }).body?.errors?.body;
      setError(field ?? (e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  if (!project) return null;
  const canChat = Boolean(me?.can_chat);
  const trimmed = text.trim();
  // Characters as a person counts them, as the route does: an emoji is one.
  const length = graphemeCount(trimmed);
  const tooLong = length > BOARD_MESSAGE_MAX || trimmed.length > BOARD_MESSAGE_MAX_UNITS;
  return (
    <Card variant="outlined" sx={{ mt: 2 }} id="tablero" data-testid="project-board">
      <CardContent>
        <Typography variant="h6" gutterBottom>
          {translate("sia.board.title")}
        </Typography>
        {denied ? (
          <Alert severity="info">{translate("sia.board.members_only")}</Alert>
        ) : (
          <>
            {hasMore && (
              <Button size="small" onClick={() => void loadOlder()}>
                {translate("sia.board.load_older")}
              </Button>
            )}
            <Stack spacing={1.5} sx={{ maxHeight: 420, overflowY: "auto", my: 1 }} data-testid="board-messages">
              {loaded && messages.length === 0 && <Typography color="text.secondary">{translate("sia.board.empty")}</Typography>}
              {messages.map((m) => (
                <Box key={m.id} data-testid="board-message" data-message-id={m.id}>
                  <Typography variant="subtitle2" component="div">
                    {m.author_name}{" "}
                    <Typography variant="caption" color="text.secondary" component="span">
                      {formatDateTime(m.created_at)}
                    </Typography>
                  </Typography>
                  <Typography variant="body2" component="div" data-testid="board-message-body">
                    <MessageText body={m.body} />
                  </Typography>
                  <SeenBy message={m} />
                </Box>
              ))}
            </Stack>
            {canChat ? (
              <Box sx={{ position: "relative" }} ref={composer}>
                <TextField
                  inputRef={input}
                  label={translate("sia.board.message")}
                  placeholder={translate("sia.board.placeholder")}
                  value={text}
                  onChange={(e) => {
                    setText(e.target.value);
                    setCaret(e.target.selectionStart ?? e.target.value.length);
                    // What the error was about has changed: the next send says whether it still holds.
                    setError(undefined);
                  }}
                  onSelect={(e) => setCaret((e.target as HTMLTextAreaElement).selectionStart ?? 0)}
                  onKeyDown={(e) => {
                    if (e.key === "Enter" && !e.shiftKey && suggestions.length === 0) {
                      e.preventDefault();
                      void send();
                    }
                  }}
                  error={Boolean(error) || tooLong}
                  helperText={error ?? " "}
                  multiline
                  minRows={2}
                  fullWidth
                  slotProps={{ htmlInput: { "aria-label": translate("sia.board.message"), "data-testid": "board-input" } }}
                />
                {/* In a layer of its own: inside the card, an empty board left no room above the box and cut it off. */}
                <Popper
                  open={suggestions.length > 0 && composer.current !== null}
                  anchorEl={composer.current}
                  placement="top-start"
                  sx={{ zIndex: (theme) => theme.zIndex.modal }}
                >
                  <Paper elevation={4}>
                    <List dense aria-label={translate("sia.board.mentions")} data-testid="board-mentions">
                      {suggestions.map((m) => (
                        <ListItemButton key={m.id} onClick={() => insertMention(m)}>
                          <ListItemText primary={m.name} secondary={`@${m.handle}`} />
                        </ListItemButton>
                      ))}
                    </List>
                  </Paper>
                </Popper>
                <Stack direction="row" justifyContent="space-between" alignItems="center">
                  <Typography variant="caption" color={tooLong ? "error" : "text.secondary"} data-testid="board-counter">
                    {translate("sia.board.counter", { length, max: BOARD_MESSAGE_MAX })}
                  </Typography>
                  <Button variant="contained" onClick={() => void send()} disabled={busy || length === 0 || tooLong}>
                    {translate("sia.board.send")}
                  </Button>
                </Stack>
              </Box>
            ) : (
              <Alert severity="info">{translate("sia.board.cannot_chat", { reason: boardMessages.cannotChat })}</Alert>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
