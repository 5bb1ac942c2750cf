/**
 * The bell in the app bar: the user's notifications (mentions, notices, project notes), each
 * marked seen when opened, and «Activar notificaciones», which registers the service worker (public/sw.js)
 * and subscribes this device to Web Push only when the user asks for it.
 */
import NotificationsIcon from "@mui/icons-material/Notifications";
import { Badge, Divider, IconButton, ListItemText, Menu, MenuItem, Tooltip, Typography } from "@mui/material";
import { useState } from "react";
import { useDataProvider, useNotify, useTranslate } from "react-admin";
import { useNavigate } from "react-router-dom";
import { PAGE_PATHS, screenPath, TIMESHEET_WEEK_PARAM } from "../../core/resources";
import type { BellNotification, SiaDataProvider } from "../../dataProvider";
import { announceBoardActivity } from "./realtime";
import { useSummary } from "./summary";

const base64UrlToBytes = (value: string) => {
  const padded = (value + "=".repeat((4 - (value.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
};

const pushSupported = () => typeof window !== "undefined" && "serviceWorker" in navigator && "PushManager" in window;

/** Subscribes this device; answers the es.ts key of the outcome to show. */
async function activatePush(dataProvider: SiaDataProvider): Promise<string> {
  if (!pushSupported()) return "sia.bell.unsupported";
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return "sia.bell.permission_denied";
  const registration = await navigator.serviceWorker.register("/sw.js");
  await navigator.serviceWorker.ready;
  const { public_key } = await dataProvider.pushPublicKey();
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64UrlToBytes(public_key) }));
  await dataProvider.subscribePush(subscription.toJSON());
  return "sia.bell.activated";
}

export function NotificationBell() {
  const summary = useSummary();
  const dataProvider = useDataProvider<SiaDataProvider>();
  const notify = useNotify();
  const navigate = useNavigate();
  const translate = useTranslate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [items, setItems] = useState<BellNotification[]>([]);
  const unseen = summary?.unseen_notifications ?? 0;

  const open = async (target: HTMLElement) => {
    setAnchor(target);
    try {
      setItems((await dataProvider.listNotifications()).notifications);
    } catch {
      setItems([]);
    }
  };
  const choose = async (n: BellNotification) => {
    setAnchor(null);
    if (!n.seen_at) await dataProvider.markNotificationSeen(n.id).catch(() => {});
    announceBoardActivity();
    if (n.project_id) navigate(`${screenPath("projects", "show", n.project_id)}?tab=board`);
    else if (n.kind === "review" && n.week_start) navigate(`${PAGE_PATHS.activities}?${TIMESHEET_WEEK_PARAM}=${n.week_start}`);
  };
  const activate = async () => {
    setAnchor(null);
    try {
      notify(await activatePush(dataProvider), { type: "info" });
    } catch (error) {
      notify("sia.bell.activation_failed", { type: "error", messageArgs: { error: (error as Error).message } });
    }
  };

  return (
    <>
      <Tooltip title={translate("sia.bell.title")}>
        <IconButton
          color="inherit"
          aria-label={translate("sia.bell.title")}
          onClick={(e) => void open(e.currentTarget)}
          data-testid="bell"
        >
          {unseen > 0 ? (
            <Badge badgeContent={unseen} color="error" data-testid="bell-count">
              <NotificationsIcon />
            </Badge>
          ) : (
            <NotificationsIcon />
          )}
        </IconButton>
      </Tooltip>
      <Menu
        anchorEl={anchor}
        open={Boolean(anchor)}
        onClose={() => setAnchor(null)}
        slotProps={{ paper: { sx: { maxWidth: 420 } } }}
      >
        {items.length === 0 && (
          <MenuItem disabled>
            <Typography variant="body2">{translate("sia.bell.empty")}</Typography>
          </MenuItem>
        )}
        {items.map((n) => (
          <MenuItem key={n.id} onClick={() => void choose(n)} sx={{ whiteSpace: "normal", fontWeight: n.seen_at ? 400 : 600 }}>
            <ListItemText
              primary={`${translate(`sia.bell.kinds.${n.kind}`, { _: translate("sia.bell.kinds.notice") })}${n.project_name ? ` · ${n.project_name}` : ""} — ${n.author_name}`}
              secondary={n.message}
              slotProps={{ secondary: { sx: { whiteSpace: "pre-wrap", overflowWrap: "anywhere" } } }}
            />
          </MenuItem>
        ))}
        {pushSupported() && <Divider />}
        {pushSupported() && <MenuItem onClick={() => void activate()}>{translate("sia.bell.activate")}</MenuItem>}
      </Menu>
    </>
  );
}
