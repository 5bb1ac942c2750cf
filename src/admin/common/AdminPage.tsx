/**
 * What the administrators' custom pages (outbox, integrations, notices) share: the guard that mirrors the server's
 * permission, a react-query result's three states, and a table head from es.ts keys.
 */
import { Alert, CircularProgress, TableCell, TableHead, TableRow } from "@mui/material";
import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Title, useBasename, usePermissions, useTranslate } from "react-admin";
import { Navigate } from "react-router-dom";
import { messages } from "../../core/messages";
import { type Action, canAccess } from "../../core/permissions";
import type { SessionUser } from "../../core/session";

/** The Spanish message of a failed call (HttpError carries the server's), or the generic one. */
export const errorText = (error: unknown) => (error instanceof Error && error.message ? error.message : messages.unexpected);

/**
 * Renders the page, with its title (an es.ts key) in the app bar, only for whom the permission matrix
 * allows it; others go to react-admin's «Acceso denegado» page, as on the resources' screens.
 */
export function AdminPageGuard({
  resource,
  action,
  title,
  children,
}: {
  resource: string;
  action: Action;
  /** The app bar's title; left out when the page's own frame sets it. */
  title?: string;
  children: ReactNode;
}) {
  const translate = useTranslate();
  const basename = useBasename();
  const { permissions, isPending } = usePermissions<SessionUser | null>();
  if (isPending) return null;
  if (!canAccess({ user: permissions, resource, action })) return <Navigate to={`${basename}/access-denied`} replace />;
  return (
    <>
      {title && <Title title={translate(title)} />}
      {children}
    </>
  );
}

/** A spinner while the query is pending, its error in Spanish, else `children(data)`. */
export function QueryState<T>({ query, children }: { query: UseQueryResult<T>; children: (data: T) => ReactNode }) {
  if (query.isPending) return <CircularProgress size={24} />;
  if (query.isError) return <Alert severity="error">{errorText(query.error)}</Alert>;
  return <>{children(query.data)}</>;
}

/** A table head: one cell per es.ts key, and an empty last cell when the rows end with actions. */
export function TableHeader({ labels, actions = false }: { labels: string[]; actions?: boolean }) {
  const translate = useTranslate();
  return (
    <TableHead>
      <TableRow>
        {labels.map((label) => (
          <TableCell key={label}>{translate(label)}</TableCell>
        ))}
        {actions && <TableCell />}
      </TableRow>
    </TableHead>
  );
}
