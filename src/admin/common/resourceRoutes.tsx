/**
 * Builds a react-admin <Resource> whose screens answer at SPEC §2's paths (src/core/resources.ts):
 * `list`, `new`, `update/:id`, `show/:id`, `:id`… React-admin's own paths (`create`, `:id/show`, and
 * `:id` where the spec has no such path) redirect to the spec's, so links react-admin builds still work.
 * Called as a function, not rendered as a component: <Admin> reads its <Resource> children directly.
 *
 * A resource's screens are code-split: its index.ts declares them with `lazyScreens`, so its
 * screen module (and what only it uses) loads when one of its screens is first shown, never with the
 * timesheet or another resource's screens.
 */
import { type ComponentType, lazy, type ReactElement, type ReactNode, Suspense } from "react";
import { Loading, Resource } from "react-admin";
import { Navigate, Route, useParams } from "react-router-dom";
import { type ScreenKind, screenOf, screenPath } from "../../core/resources";

export interface ResourceScreens {
  list?: ComponentType;
  create?: ComponentType;
  edit?: ComponentType;
  show?: ComponentType;
  icon?: ComponentType;
  recordRepresentation?: string | ((record: Record<string, unknown>) => string);
  /** Extra routes under the resource (e.g. a project's invoices). */
  children?: ReactNode;
}

type ScreenName = "list" | "create" | "edit" | "show";

/**
 * The screens `kinds` of a resource, each a lazy component that loads the resource's screen module on
 * first render (one chunk for all its screens, fetched once). The module exports `screens`, holding at
 * least the kinds named (the type checker holds it to that). resourceRoutes shows each screen inside a
 * Suspense boundary with react-admin's loading page as fallback.
 */
export function lazyScreens<K extends ScreenName>(
  load: () => Promise<{ screens: Record<K, ComponentType> }>,
  kinds: readonly K[],
): Record<K, ComponentType> {
  const out = {} as Record<K, ComponentType>;
  for (const kind of kinds) out[kind] = lazy<ComponentType>(() => load().then((m) => ({ default: m.screens[kind] })));
  return out;
}

const suspended = (Screen: ComponentType) => (
  <Suspense fallback={<Loading />}>
    <Screen />
  </Suspense>
);

function RedirectTo({ resource, kind }: { resource: string; kind: ScreenKind }) {
  const { id } = useParams();
  return <Navigate to={screenPath(resource, kind, id)} replace />;
}

export function resourceRoutes(name: string, screens: ResourceScreens): ReactElement {
  const screen = screenOf(name);
  const routes: ReactElement[] = [];
  const taken = new Set<string>();
  const add = (path: string, element: ReactElement) => {
    if (taken.has(path)) return;
    taken.add(path);
    routes.push(<Route key={path} path={path} element={element} />);
  };
  const kinds: ScreenKind[] = ["create", "edit", "show"];
  for (const kind of kinds) {
    const Screen = screens[kind];
    if (!Screen) continue;
    for (const path of screen?.paths[kind] ?? []) add(path, suspended(Screen));
  }
  if (screens.list) for (const path of screen?.paths.list ?? []) add(path, suspended(screens.list));
  // React-admin's own spellings → the spec's.
  if (screens.create) add("create", <RedirectTo resource={name} kind="create" />);
  if (screens.show) add(":id/show", <RedirectTo resource={name} kind="show" />);
  if (screens.show) add(":id", <RedirectTo resource={name} kind="show" />);
  else if (screens.edit) add(":id", <RedirectTo resource={name} kind="edit" />);

  return (
    <Resource
      key={name}
      name={name}
      list={screens.list}
      hasCreate={Boolean(screens.create)}
      hasEdit={Boolean(screens.edit)}
      hasShow={Boolean(screens.show)}
      icon={screens.icon}
      recordRepresentation={screens.recordRepresentation}
    >
      {routes}
      {screens.children}
    </Resource>
  );
}
