/**
 * The backup's own words where it shares a frame with others: BACKUP_KEEP's refusals (not zod's English-
 * flavoured defaults), and «Forzar» on the nightly backup, which writes an archive and sends no message.
 */
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../server/config";
import { es } from "../../src/admin/i18n/es";
import { forceConfirmationKey } from "../../src/admin/pages/forceConfirmation";

const textOf = (key: string) => key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], es);

describe("backup settings and texts", () => {
  it("BACKUP_KEEP refuses anything but a whole number from 1 to 3650, in its own words", () => {
    for (const value of ["abc", "2.5", "0", "3651"]) {
      const load = () => loadConfig({ NODE_ENV: "test", BACKUP_KEEP: value });
      expect(load, value).toThrow(ConfigError);
      expect(load, value).toThrow("BACKUP_KEEP: debe ser un número entero entre 1 y 3650");
    }
    expect(loadConfig({ NODE_ENV: "test", BACKUP_KEEP: "30" }).BACKUP_KEEP).toBe(30);
  });

  it("«Forzar» on the nightly backup says a backup is written, not that messages are sent again", () => {
    const backup = textOf(forceConfirmationKey("nightly_backup"));
    expect(backup).toBe("Se escribirá un respaldo nuevo ahora; los respaldos anteriores se conservan.");
    expect(textOf(forceConfirmationKey("weekly_reminder"))).toMatch(/^Se enviarán de nuevo los mensajes/);
    expect(textOf(forceConfirmationKey("budget_alerts"))).toMatch(/solo se avisará de los umbrales que no se hayan avisado/);
  });
});
