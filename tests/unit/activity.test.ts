import { describe, expect, it } from "vitest";
import { activities } from "../../server/db/schema";
import {
  ACTIVITY_COPY_FIELDS,
  ACTIVITY_FIELDS,
  ACTIVITY_INSERT_COLUMNS,
  ACTIVITY_WRITABLE,
  type Activity,
  activityIdOfLocal,
  activityToLocalEvent,
  copyOfActivity,
  localEventChanges,
  localEventToActivity,
  templateOfLocal,
} from "../../src/core/activity";
import type { LocalEvent } from "../../src/core/localEvent";
import { activityFields } from "../../src/core/schemas/activity";

const event: LocalEvent = {
  id: "uid-1|2031-03-03T15:00:00.000Z",
  summary: "S|Cliente|Timbrado|ST|Incidencia",
  start: "2031-03-03T15:00:00.000Z",
  end: "2031-03-03T16:00:00.000Z",
  description: "Incidencia",
  actionType: "support",
  clientId: 7,
  clientName: "Cliente",
  ownerableType: "Client",
  activityTypeCatalogId: 3,
  projectId: null,
  projectName: null,
  project_code: null,
  productId: 9,
  ticketId: "1234",
  ticketName: "Ticket",
  favorite: true,
  isValidate: true,
  isRecurring: true,
  isintoSia: false,
  googleCId: "series-1",
  google_calendar_id: "gcal-1",
  google_calendar_event: { organizer: "a@b.mx" },
  shortTitle: "S|Cliente",
  importKey: "ics:uid-1",
};

const stored: Activity = {
  id: 41,
  lock_version: 2,
  employee_id: 5,
  begins_at: "2031-03-04T15:00:00.000Z",
  ends_at: "2031-03-04T17:00:00.000Z",
  description: "Desarrollo",
  action_type: "project",
  activity_type_catalog_id: 1,
  ownerable_id: 7,
  ownerable_type: "Client",
  ownerable_name: "Cliente",
  project_id: 12,
  project_name: "Portal",
  project_code: "PRY-1",
  product_catalog_id: 9,
  short_title: null,
  ticket_id: null,
  ticket_name: null,
  is_favorite: false,
  google_calendar_id: null,
  google_calendar_event: null,
  import_key: "csv:abc",
  is_editable: true,
  is_month_frozen: false,
};

describe("the activity vocabulary", () => {
  it("declares every stored column of the table and every field of the schema, once", () => {
    const tableColumns = Object.keys(activities).filter(
      (k) => !["id", "is_editable", "lock_version", "created_at", "updated_at"].includes(k),
    );
    expect(Object.keys(ACTIVITY_FIELDS).sort()).toEqual(
      tableColumns.filter((k) => typeof (activities as never)[k] === "object").sort(),
    );
    expect([...ACTIVITY_WRITABLE].sort()).toEqual(Object.keys(activityFields).sort());
    expect(ACTIVITY_INSERT_COLUMNS.map(([c]) => c)).toEqual(Object.keys(ACTIVITY_FIELDS));
    expect(ACTIVITY_INSERT_COLUMNS).toContainEqual(["google_calendar_event", "jsonb"]);
  });

  it("a copy carries what the activity is about, not its times, owner, keys or favourite mark", () => {
    expect([...ACTIVITY_COPY_FIELDS]).toEqual([
      "description",
      "action_type",
      "activity_type_catalog_id",
      "ownerable_id",
      "ownerable_type",
      "project_id",
      "product_catalog_id",
      "short_title",
      "ticket_id",
      "ticket_name",
    ]);
    expect(copyOfActivity(stored)).toMatchObject({ description: "Desarrollo", project_id: 12, short_title: null });
    expect(copyOfActivity(stored)).not.toHaveProperty("import_key");
  });

  it("a local event becomes the batch's activity body", () => {
    expect(localEventToActivity(event, 5)).toEqual({
      employee_id: 5,
      begins_at: event.start,
      ends_at: event.end,
      description: "Incidencia",
      action_type: "support",
      activity_type_catalog_id: 3,
      ownerable_id: 7,
      ownerable_type: "Client",
      project_id: null,
      product_catalog_id: 9,
      short_title: "S|Cliente",
      ticket_id: "1234",
      ticket_name: "Ticket",
      is_favorite: true,
      google_calendar_id: "gcal-1",
      google_calendar_event: { organizer: "a@b.mx" },
      import_key: "ics:uid-1",
      google_series_id: "series-1",
    });
    const noKey = localEventToActivity({ ...event, importKey: null });
    expect(noKey.import_key).toBe("gcal-1");
    expect(noKey).not.toHaveProperty("employee_id");
  });

  it("an activity becomes a brown local event, and back to the same activity body", () => {
    const local = activityToLocalEvent(stored);
    expect(local).toMatchObject({
      id: "SIA-41",
      summary: "Desarrollo",
      start: stored.begins_at,
      end: stored.ends_at,
      actionType: "project",
      clientId: 7,
      clientName: "Cliente",
      projectId: 12,
      projectName: "Portal",
      project_code: "PRY-1",
      productId: 9,
      favorite: false,
      isValidate: true,
      isintoSia: true,
      importKey: "csv:abc",
    });
    expect(activityIdOfLocal(local)).toBe(41);
    expect(activityIdOfLocal(event)).toBeNull();
    const body = localEventToActivity(local, 5);
    for (const field of ACTIVITY_WRITABLE) expect(body[field], field).toEqual(stored[field]);
  });

  it("the form's values become the local event's changes, with the pickers' labels", () => {
    const changes = localEventChanges(
      {
        begins_at: new Date("2031-03-03T16:00:00.000Z"),
        ends_at: "2031-03-03T17:30:00.000Z",
        action_type: "project",
        description: "Nuevo texto",
        project_id: "12",
        activity_type_catalog_id: 1,
        ownerable_id: "",
        ticket_id: "",
        is_favorite: 1,
      },
      { project_name: "Portal", project_code: "PRY-1" },
    );
    expect(changes).toEqual({
      start: "2031-03-03T16:00:00.000Z",
      end: "2031-03-03T17:30:00.000Z",
      actionType: "project",
      description: "Nuevo texto",
      summary: "Nuevo texto",
      projectId: 12,
      activityTypeCatalogId: 1,
      clientId: null,
      ticketId: null,
      favorite: true,
      projectName: "Portal",
      project_code: "PRY-1",
    });
  });

  it("a local event as the form's template", () => {
    expect(templateOfLocal(event)).toEqual({
      description: "Incidencia",
      action_type: "support",
      activity_type_catalog_id: 3,
      ownerable_id: 7,
      ownerable_type: "Client",
      project_id: null,
      product_catalog_id: 9,
      short_title: "S|Cliente",
      ticket_id: "1234",
      ticket_name: "Ticket",
      ownerable_name: "Cliente",
      project_name: null,
      project_code: null,
      is_favorite: true,
    });
  });
});
