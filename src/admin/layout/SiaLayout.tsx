import AccountCircleIcon from "@mui/icons-material/AccountCircle";
import { Alert, AlertTitle, Badge, Chip, ListItemIcon, ListItemText, MenuItem, type Theme, useMediaQuery } from "@mui/material";
import { type ReactNode, useEffect } from "react";
import {
  AppBar,
  Layout,
  Logout,
  Menu,
  type NotificationPayload,
  TitlePortal,
  UserMenu,
  useGetIdentity,
  useNotificationContext,
  useNotify,
  usePermissions,
  useTranslate,
  useUserMenu,
} from "react-admin";
import { Link } from "react-router-dom";
import { APP_VERSION } from "../../core/constants";
import { canAccess } from "../../core/permissions";
import { PAGE_PATHS, screenPath } from "../../core/resources";
import { hasSomeRole } from "../../core/schemas/user";
import type { SessionUser } from "../../core/session";
import { listen } from "../../dataProvider";
import { NotificationBell } from "../board/NotificationBell";
import { useSummary } from "../board/summary";
import { MENU } from "./menuItems";

const PROJECTS_PATH = screenPath("projects", "list");

/** "Mi perfil": everyone's own user view (SPEC §2 show_not_admin/:id). */
function MyProfileMenuItem() {
  const { permissions } = usePermissions<SessionUser | null>();
  const translate = useTranslate();
  const userMenu = useUserMenu();
  if (!permissions) return null;
  return (
    <MenuItem component={Link} to={`/app/users/show_not_admin/${permissions.id}`} onClick={() => userMenu?.onClose()}>
      <ListItemIcon>
        <AccountCircleIcon fontSize="small" />
      </ListItemIcon>
      <ListItemText>{translate("sia.menu.my_profile")}</ListItemText>
    </MenuItem>
  );
}

function SiaAppBar() {
  const translate = useTranslate();
  const { identity } = useGetIdentity();
  // Where the menu's button shows the person's name (from sm up, as react-admin's UserMenu decides) its
  // accessible name must contain that text (WCAG 2.5.3). On a phone it is an icon, whose label react-admin
  // translates as a key with an English fallback: it gets the key, translated in ra-es.ts.
  const nameShown = useMediaQuery((theme: Theme) => theme.breakpoints.up("sm"));
  const userMenuLabel =
    nameShown && identity?.fullName ? translate("sia.app_bar.user_menu_of", { name: identity.fullName }) : "ra.auth.user_menu";
  return (
    <AppBar
      userMenu={
        <UserMenu label={userMenuLabel}>
          <MyProfileMenuItem />
          <Logout />
        </UserMenu>
      }
    >
      <TitlePortal />
      <NotificationBell />
      <Chip
        component={Link}
        to={PAGE_PATHS.changelog}
        clickable
        size="small"
        label={`v${APP_VERSION}`}
        // On a phone the title and the user menu need the bar's width.
        sx={{ color: "inherit", borderColor: "currentColor", mr: 1, display: { xs: "none", sm: "inline-flex" } }}
        variant="outlined"
        data-testid="app-version"
      />
    </AppBar>
  );
}

function SiaMenu() {
  const { permissions } = usePermissions<SessionUser | null>();
  const translate = useTranslate();
  const summary = useSummary(Boolean(permissions));
  const visible = MENU.filter(
    (entry) =>
      (!entry.resource || canAccess({ user: permissions, resource: entry.resource, action: entry.action ?? "list" })) &&
      (!entry.reviewers || summary?.reviewer),
  );
  const unread = summary?.unread_messages ?? 0;
  const pending = summary?.pending_reviews ?? 0;
  return (
    <Menu>
      {visible.map((entry) => (
        <Menu.Item
          key={entry.to}
          to={entry.to}
          primaryText={translate(entry.label)}
          leftIcon={
            // Unread board messages on «Proyectos», only when there are some (never a hidden 0 in the menu's text).
            entry.to === PROJECTS_PATH && unread > 0 ? (
              <Badge badgeContent={unread} color="error" max={99} aria-hidden data-testid="menu-unread">
                <entry.icon />
              </Badge>
            ) : entry.to === PAGE_PATHS.week_reviews && pending > 0 ? (
              <Badge badgeContent={pending} color="primary" max={99} aria-hidden data-testid="menu-reviews">
                <entry.icon />
              </Badge>
            ) : (
              <entry.icon />
            )
          }
        />
      ))}
    </Menu>
  );
}

/** A toast for each field of a 422 (SPEC §8: "Error en los parametros {field}"). */
function ApiEventsListener() {
  const notify = useNotify();
  useEffect(
    () =>
      listen("sia:field-errors", ({ messages }) => {
        for (const message of messages) notify(message, { type: "error", multiLine: true });
      }),
    [notify],
  );
  return null;
}

/** A toast that only says something worked: a newer toast makes it stale. */
const superseded = (n: NotificationPayload) => (n.type === "success" || n.type === "info") && !n.notificationOptions?.undoable;

/**
 * React-admin shows its toasts one after another, 4 s each. Ten quick keyed moves queued ten «La actividad
 * se edito correctamente» and held the next refusal or «Las actividades se guardaron correctamente» back for
 * 40 s. A success or an info still waiting is dropped once a newer toast comes; errors, warnings and undoable
 * toasts (whose undo window is their toast) all stay.
 */
function LatestToasts() {
  const { notifications, setNotifications } = useNotificationContext();
  useEffect(() => {
    if (notifications.some((n, i) => i < notifications.length - 1 && superseded(n)))
      setNotifications((queue) => queue.filter((n, i) => i === queue.length - 1 || !superseded(n)));
  }, [notifications, setNotifications]);
  return null;
}

/**
 * On a phone a table wider than the screen scrolls by itself (PHONE_LAYOUT); one with nothing focusable in
 * it (a status history, a show page's list) could not be scrolled from the keyboard (WCAG 2.1.1, axe
 * scrollable-region-focusable). Each such table takes focus; tables redrawn later are marked too.
 */
function FocusableScrollers() {
  const phone = useMediaQuery((theme: Theme) => theme.breakpoints.down("sm"));
  useEffect(() => {
    if (!phone) return;
    let frame = 0;
    const mark = () => {
      frame = 0;
      for (const table of document.querySelectorAll<HTMLElement>(".RaLayout-content .MuiTable-root"))
        if (table.scrollWidth > table.clientWidth && !table.hasAttribute("tabindex")) table.tabIndex = 0;
    };
    const observer = new MutationObserver(() => {
      if (!frame) frame = requestAnimationFrame(mark);
    });
    observer.observe(document.body, { childList: true, subtree: true });
    mark();
    return () => {
      observer.disconnect();
      cancelAnimationFrame(frame);
    };
  }, [phone]);
  return null;
}

/** What a signed-in user without any role sees in place of every screen (they can still sign out). */
function NoRole() {
  const translate = useTranslate();
  return (
    <Alert severity="info" sx={{ mt: 2, maxWidth: 640 }} role="alert">
      <AlertTitle>{translate("sia.no_role.title")}</AlertTitle>
      {translate("sia.no_role.message")}
    </Alert>
  );
}

/**
 * Below 600 px nothing makes the page wider than the screen: react-admin's layout grows to fit its
 * content, so on a phone it keeps the screen's width, the title wraps instead of being cut, a card's
 * header actions go under its title, and a table too wide for the screen scrolls by itself.
 */
const PHONE_LAYOUT = {
  "@media (max-width: 599.95px)": {
    minWidth: 0,
    "& .RaLayout-contentWithSidebar, & .RaLayout-content": { minWidth: 0 },
    "& #react-admin-title": { whiteSpace: "normal", overflow: "visible", fontSize: "1.05rem", lineHeight: 1.2 },
    "& .MuiCardHeader-root": { flexWrap: "wrap", rowGap: 1 },
    "& .MuiCardHeader-action": { m: 0, minWidth: 0, maxWidth: "100%", flexWrap: "wrap" },
    "& .RaLayout-content .MuiTable-root": { display: "block", overflowX: "auto" },
  },
};

export function SiaLayout({ children }: { children: ReactNode }) {
  const { permissions } = usePermissions<SessionUser | null>();
  const roleless = Boolean(permissions && !hasSomeRole(permissions));
  return (
    <Layout appBar={SiaAppBar} menu={SiaMenu} sx={PHONE_LAYOUT}>
      <ApiEventsListener />
      <LatestToasts />
      <FocusableScrollers />
      {roleless ? <NoRole /> : children}
    </Layout>
  );
}
