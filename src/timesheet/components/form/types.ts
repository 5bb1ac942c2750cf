/** The activity dialog's contract with the page that opens it. */

import type { Activity } from "../../../core/activity";
import type { ActionType } from "../../../core/constants";

export interface ActivityDialogTarget {
  mode: "create" | "edit";
  /** An activity, a local event's template, a favourite. */
  initial: Partial<Activity>;
  begins: Date;
  ends: Date;
  /** Closed week / month, or 'Todos': the form is shown disabled, without Guardar or Eliminar. */
  readOnlyReason?: string | null;
  /**
   * Why an imported event is invalid. Given (even empty) for an imported event of the saved week: the
   * dialog is then titled as one ('Editar actividad importada').
   */
  errors?: string[];
  canDelete?: boolean;
  canDuplicate?: boolean;
  /**
   * What a new row of the weekly grid logs against: the form without its day and times (the grid places
   * the hours), titled «Añadir fila»; the page keeps the row instead of saving an activity.
   */
  rowOnly?: boolean;
}

/** The pickers' texts, for a page that stores names beside ids (the local saved week). */
export interface ChoiceLabels {
  projectLabel: string | null;
  ownerLabel: string | null;
  productLabel: string | null;
  typeCode: string | null;
}

/** What the form gives back: the activity's fields, checked by the shared schema, instants as ISO text. */
export interface ActivityFormValues {
  begins_at: string;
  ends_at: string;
  action_type: ActionType;
  description: string;
  activity_type_catalog_id: number | null;
  ownerable_id: number | null;
  ownerable_type: "Client" | "Prospect" | null;
  project_id: number | null;
  product_catalog_id: number | null;
  ticket_id: string | null;
  ticket_name: string | null;
  short_title: string | null;
  is_favorite: boolean;
  employee_id: number | null;
}

export interface AppSettingsLite {
  default_customer_id?: number | null;
  default_customer_name?: string | null;
  support_excluded_customer_id?: number | null;
}
