/**
 * The project state machine (SPEC §4) as ONE table. The server enforces it (POST
 * projects/:id/aasm_transition), the screens read `permitted_events` computed from it, and the
 * warranty job uses its system event. Decided in docs/decisions/007-project-and-invoice-states.md.
 *
 * Event names match the demo seed's project_stages (`crear` is the creation row, not an event).
 */
import { canAccess, isAdmin, type RoleHolder } from "./permissions";
import { PROJECT_STATES, type ProjectState } from "./states";

export interface MachineEvent<S extends string> {
  name: string;
  /** Spanish button label. */
  label: string;
  from: readonly S[];
  to: S;
  /** Only administrators see and fire it (SPEC §6: reactivate is admin-only). */
  adminOnly?: boolean;
  /** Fired by the server itself (scheduled jobs), never offered to a user. */
  system?: boolean;
}

/** Event of the creation row of project_stages (not a transition). */
export const PROJECT_CREATE_EVENT = "crear";
/** How the creation row is named in the stage history. */
export const PROJECT_CREATE_LABEL = "Crear";
/** Days a project stays in Garantía before the scheduled job closes it (SPEC §4). */
export const WARRANTY_AUTO_CLOSE_DAYS = 60;

export const PROJECT_EVENTS = [
  { name: "enviar_propuesta", label: "Enviar propuesta", from: ["requerimiento"], to: "propuesta" },
  { name: "iniciar_ejecucion", label: "Iniciar ejecución", from: ["propuesta"], to: "en_ejecucion" },
  { name: "enviar_a_validacion", label: "Enviar a validación del cliente", from: ["en_ejecucion"], to: "validacion_cliente" },
  {
    name: "solicitar_autorizacion",
    label: "Solicitar autorización del cliente",
    from: ["validacion_cliente"],
    to: "autorizacion_cliente",
  },
  { name: "iniciar_garantia", label: "Iniciar garantía", from: ["autorizacion_cliente"], to: "garantia" },
  { name: "terminar", label: "Terminar", from: ["garantia"], to: "terminado" },
  {
    name: "regresar_a_ejecucion",
    label: "Regresar a ejecución",
    from: ["validacion_cliente", "autorizacion_cliente", "garantia"],
    to: "en_ejecucion",
  },
  { name: "no_autorizar", label: "No autorizado", from: ["requerimiento", "propuesta"], to: "no_autorizado" },
  {
    name: "cancelar",
    label: "Cancelar proyecto",
    from: ["requerimiento", "propuesta", "en_ejecucion", "validacion_cliente", "autorizacion_cliente"],
    to: "cancelado",
  },
  { name: "reactivar", label: "Reactivar", from: ["cancelado", "terminado"], to: "en_ejecucion", adminOnly: true },
  { name: "reactivar_propuesta", label: "Reactivar propuesta", from: ["no_autorizado"], to: "propuesta", adminOnly: true },
  {
    name: "cerrar_garantia",
    label: "Cierre automático de garantía",
    from: ["garantia"],
    to: "terminado",
    system: true,
  },
] as const satisfies readonly MachineEvent<ProjectState>[];

export type ProjectEventName = (typeof PROJECT_EVENTS)[number]["name"];

export const projectEvent = (name: string): MachineEvent<ProjectState> | undefined =>
  (PROJECT_EVENTS as readonly MachineEvent<ProjectState>[]).find((e) => e.name === name);

/** Events the user may fire on a project in `state`: none without the transition grant. */
export function permittedEvents(state: string, user: RoleHolder | null | undefined): MachineEvent<ProjectState>[] {
  if (!canAccess({ user, resource: "projects", action: "transition" })) return [];
  return (PROJECT_EVENTS as readonly MachineEvent<ProjectState>[]).filter(
    (e) => !e.system && (e.from as readonly string[]).includes(state) && (!e.adminOnly || isAdmin(user)),
  );
}

export const projectStateLabel = (state: string) => PROJECT_STATES[state as ProjectState] ?? state;
