import { describe, expect, it } from "vitest";
import { eventForStorage } from "../../server/modules/quotations/event";
import { eventForForm } from "../../src/admin/quotations/QuotationInputs";
import { quotationFormSchema } from "../../src/core/schemas/quotation";

const base = { contact_name: "Ana", prospect_id: 1, product_catalog_id: 2, audit_comment: null };

describe("quotation form", () => {
  it("sends no event while the tick is off, whatever the event inputs hold", () => {
    const parsed = quotationFormSchema.safeParse({ ...base, with_event: false, event: { starts_at: null, attendees: ["x@"] } });
    expect(parsed.success).toBe(true);
    expect(parsed.data).toMatchObject({ event: null });
  });

  it("validates the event once ticked: a date and valid e-mails", () => {
    const bad = quotationFormSchema.safeParse({ ...base, with_event: true, event: { starts_at: null, attendees: ["ana@"] } });
    expect(bad.success).toBe(false);
    const paths = bad.error?.issues.map((i) => i.path.join("."));
    expect(paths).toEqual(expect.arrayContaining(["event.starts_at", "event.attendees"]));
    expect(bad.error?.issues.find((i) => i.path.join(".") === "event.attendees")?.message).toBe(
      "Verifique que los correos ingresados estén correctos.",
    );
  });

  it("a stored event comes back to the form as the form would send it, so an untouched event is not resent", () => {
    const stored = eventForStorage(
      { starts_at: "2026-12-01T16:00:00.000Z", duration_minutes: 90, attendees: ["ana@cliente.mx"] },
      { summary: "Demostración — Ana", organizer: null, sequence: 2 },
    );
    const form = eventForForm(stored);
    const parsed = quotationFormSchema.parse({ ...base, with_event: true, event: form }) as { event: unknown };
    expect(JSON.stringify(parsed.event)).toBe(JSON.stringify(form));
    expect(form).toMatchObject({ starts_at: "2026-12-01T16:00:00.000Z", duration_minutes: 90, attendees: ["ana@cliente.mx"] });
    expect(eventForForm(null)).toBeNull();
  });
});
