import { Chip } from "@mui/material";
import { type ReactNode, useEffect } from "react";
import {
  AppBar,
  Layout,
  Menu,
  TitlePortal,
  useNotify,
  usePermissions,
  useTranslate,
} from "react-admin";
import { Link, useNavigate } from "react-router-dom";
import { APP_VERSION } from "../../core/constants";
import { canAccess } from "../../core/permissions";
import { PAGE_PATHS } from "../../core/resources";
import type { SessionUser } from "../../core/session";
import { listen } from "../../dataProvider/events";
import { MENU } from "./menuItems";

function SiaAppBar() {
  return (
    <AppBar>
      <TitlePortal />
      <Chip
        component={Link}
        to={PAGE_PATHS.changelog}
        clickable
        size="small"
        label={`v${APP_VERSION}`}
        sx={{ color: "inherit", borderColor: "currentColor", mr: 1 }}
        variant="outlined"
        data-testid="app-version"
      />
    </AppBar>
  );
}

function SiaMenu() {
  const { permissions } = usePermissions<SessionUser | null>();
  const translate = useTranslate();
  const visible = MENU.filter(
    (entry) => !entry.resource || canAccess({ user: permissions, resource: entry.resource, action: entry.action ?? "list" }),
  );
  return (
    <Menu>
      {visible.map((entry) => (
        <Menu.Item key={entry.to} to={entry.to} primaryText={translate(entry.label)} leftIcon={<entry.icon />} />
      ))}
    </Menu>
  );
}

/** Toasts for each field of a 422, and the /404 page for records that do not exist (SPEC §8). */
function ApiEventsListener() {
  const notify = useNotify();
  const navigate = useNavigate();
  useEffect(() => {
    const offFields = listen("sia:field-errors", ({ messages }) => {
      for (const message of messages) notify(message, { type: "error", multiLine: true });
    });
    const offNotFound = listen("sia:not-found", () => navigate(PAGE_PATHS.notFound, { replace: true }));
    return () => {
      offFields();
      offNotFound();
    };
  }, [notify, navigate]);
  return null;
}

export function SiaLayout({ children }: { children: ReactNode }) {
  return (
    <Layout appBar={SiaAppBar} menu={SiaMenu}>
      <ApiEventsListener />
      {children}
    </Layout>
  );
}
