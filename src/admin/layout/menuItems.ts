/** The app menu, in order. Each entry shows only when the matrix lets the user list its resource. */
import AccessTimeIcon from "@mui/icons-material/AccessTime";
import AssessmentIcon from "@mui/icons-material/Assessment";
import AssignmentIndIcon from "@mui/icons-material/AssignmentInd";
import BadgeIcon from "@mui/icons-material/Badge";
import BusinessIcon from "@mui/icons-material/Business";
import CampaignIcon from "@mui/icons-material/Campaign";
import CategoryIcon from "@mui/icons-material/Category";
import EventBusyIcon from "@mui/icons-material/EventBusy";
import EventNoteIcon from "@mui/icons-material/EventNote";
import FactCheckIcon from "@mui/icons-material/FactCheck";
import GroupWorkIcon from "@mui/icons-material/GroupWork";
import HistoryIcon from "@mui/icons-material/History";
import HubIcon from "@mui/icons-material/Hub";
import InsightsIcon from "@mui/icons-material/Insights";
import Inventory2Icon from "@mui/icons-material/Inventory2";
import KeyIcon from "@mui/icons-material/Key";
import LabelIcon from "@mui/icons-material/Label";
import MailOutlineIcon from "@mui/icons-material/MailOutline";
import ManageAccountsIcon from "@mui/icons-material/ManageAccounts";
import RequestQuoteIcon from "@mui/icons-material/RequestQuote";
import SettingsIcon from "@mui/icons-material/Settings";
import TravelExploreIcon from "@mui/icons-material/TravelExplore";
import ViewKanbanIcon from "@mui/icons-material/ViewKanban";
import WorkIcon from "@mui/icons-material/Work";
import WorkspacesIcon from "@mui/icons-material/Workspaces";
import type { ComponentType } from "react";
import type { Action } from "../../core/permissions";
import { PAGE_PATHS, screenPath } from "../../core/resources";

export interface MenuEntry {
  label: string;
  to: string;
  icon: ComponentType;
  /** Matrix resource and action that must be allowed; none = every signed-in user. */
  resource?: string;
  action?: Action;
  /** Shown only to who reviews weeks (an administrator or a workspace boss: the menu's summary says so). */
  reviewers?: true;
}

export const MENU: MenuEntry[] = [
  { label: "sia.menu.activities", to: PAGE_PATHS.activities, icon: AccessTimeIcon, resource: "activities", action: "list" },
  { label: "sia.dashboards.menu", to: PAGE_PATHS.dashboard, icon: InsightsIcon, resource: "dashboards", action: "show" },
  { label: "sia.menu.clients", to: screenPath("clients", "list"), icon: BusinessIcon, resource: "clients" },
  { label: "sia.menu.prospects", to: screenPath("prospects", "list"), icon: TravelExploreIcon, resource: "prospects" },
  { label: "sia.menu.client_groups", to: screenPath("client_groups", "list"), icon: GroupWorkIcon, resource: "client_groups" },
  { label: "sia.menu.quotations", to: screenPath("quotations", "list"), icon: RequestQuoteIcon, resource: "quotations" },
  { label: "sia.menu.projects", to: screenPath("projects", "list"), icon: ViewKanbanIcon, resource: "projects" },
  { label: "sia.menu.employees", to: screenPath("employees", "list"), icon: BadgeIcon, resource: "employees" },
  { label: "sia.menu.users", to: screenPath("users", "list"), icon: ManageAccountsIcon, resource: "users" },
  { label: "sia.menu.workspaces", to: screenPath("workspaces", "list"), icon: WorkspacesIcon, resource: "workspaces" },
  // The catalogue is readable by everyone (selectors); its screen is for those who may change it.
  {
    label: "sia.menu.employee_positions",
    to: screenPath("employee_positions", "list"),
    icon: WorkIcon,
    resource: "employee_positions",
    action: "create",
  },
  { label: "sia.menu.assignments", to: screenPath("assignments", "list"), icon: AssignmentIndIcon, resource: "assignments" },
  { label: "sia.menu.holydays", to: screenPath("holydays", "list"), icon: EventBusyIcon, resource: "holydays" },
  { label: "sia.menu.products", to: screenPath("products", "list"), icon: Inventory2Icon, resource: "products" },
  { label: "sia.menu.app_licenses", to: screenPath("app_licenses", "list"), icon: KeyIcon, resource: "app_licenses" },
  { label: "sia.menu.project_types", to: screenPath("project_types", "list"), icon: CategoryIcon, resource: "project_types" },
  {
    label: "sia.menu.activity_type_catalogs",
    to: screenPath("activity_type_catalogs", "list"),
    icon: LabelIcon,
    resource: "activity_type_catalogs",
  },
  {
    label: "sia.menu.app_settings",
    to: screenPath("app_settings", "list"),
    icon: SettingsIcon,
    resource: "app_settings",
    action: "update",
  },
  {
    label: "sia.menu.week_reviews",
    to: PAGE_PATHS.week_reviews,
    icon: FactCheckIcon,
    resource: "week_reviews",
    action: "list",
    reviewers: true,
  },
  { label: "sia.menu.capacity", to: PAGE_PATHS.capacity, icon: EventNoteIcon, resource: "capacity", action: "list" },
  { label: "sia.menu.reporting", to: PAGE_PATHS.reporting, icon: AssessmentIcon, resource: "reports", action: "export" },
  { label: "sia.menu.outbox", to: PAGE_PATHS.outbox, icon: MailOutlineIcon, resource: "outbox", action: "list" },
  {
    label: "sia.menu.integrations",
    to: PAGE_PATHS.integrations,
    icon: HubIcon,
    resource: "integrations",
    action: "list",
  },
  { label: "sia.menu.notices", to: PAGE_PATHS.notices, icon: CampaignIcon, resource: "notifications", action: "create" },
  { label: "sia.menu.changelog", to: PAGE_PATHS.changelog, icon: HistoryIcon },
];
