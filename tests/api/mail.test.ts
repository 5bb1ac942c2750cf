import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { simpleParser } from "mailparser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../server/config";
import { toCsv } from "../../server/http/csv";
import { createMail, listOutbox, OutboxMail, outboxDir, readOutbox, SmtpMail } from "../../server/ports/mail";
import { buildTestApp, type TestApp } from "../support/app";
import { call, signInAs } from "../support/factories";
import { startSmtp } from "../support/smtp";

const CSV = toCsv(
  [
    { header: "Empleado", value: (r: { name: string; hours: number }) => r.name },
    { header: "Horas", value: (r: { name: string; hours: number }) => r.hours },
  ],
  [{ name: "José Pérez", hours: 8 }],
);

describe("mail port: SMTP adapter", () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  beforeAll(async () => {
    smtp = await startSmtp();
  });
  afterAll(() => smtp.close());

  it("delivers subject, recipients, text and a CSV attachment (with BOM) to a real SMTP server", async () => {
    const mail = new SmtpMail(smtp.url, "SIA <sia@prueba.mx>");
    const sent = await mail.send({
      to: ["jefa@prueba.mx", "jefe@prueba.mx"],
      subject: "Reporte semanal: año 2030",
      text: "Se adjunta el reporte.",
      attachments: [{ filename: "reporte_semana.csv", content: CSV, contentType: "text/csv; charset=utf-8" }],
    });
    mail.close();
    expect(sent.messageId).toMatch(/@/);
    expect(smtp.received).toHaveLength(1);
    const [{ envelope, parsed }] = smtp.received;
    expect(envelope.from).toBe("sia@prueba.mx");
    expect(envelope.to.sort()).toEqual(["jefa@prueba.mx", "jefe@prueba.mx"]);
    expect(parsed.subject).toBe("Reporte semanal: año 2030");
    expect(parsed.text?.trim()).toBe("Se adjunta el reporte.");
    expect(parsed.attachments).toHaveLength(1);
    const [attachment] = parsed.attachments;
    expect(attachment.filename).toBe("reporte_semana.csv");
    expect([...attachment.content.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(attachment.content.toString("utf8")).toBe(CSV);
    expect(attachment.content.toString("utf8")).toContain("José Pérez");
  });

  it("createMail picks SMTP when SMTP_URL is set and the outbox otherwise", () => {
    const base = { NODE_ENV: "test", DATA_DIR: os.tmpdir() } as const;
    expect(createMail(loadConfig({ ...base, SMTP_URL: smtp.url })).kind).toBe("smtp");
    expect(createMail(loadConfig({ ...base })).kind).toBe("outbox");
  });
});

describe("mail port: local outbox", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sia-outbox-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("writes each message as a parseable RFC 822 .eml file and lists it newest first", async () => {
    const mail = new OutboxMail(dir, "SIA <sia@prueba.mx>");
    const first = await mail.send({ to: "uno@prueba.mx", subject: "Primero", text: "uno" });
    const second = await mail.send({
      to: "dos@prueba.mx",
      subject: "Recordatorio: semana incompleta",
      text: "Registraste 32 h de 40 h.",
      attachments: [{ filename: "reporte.csv", content: CSV }],
    });
    const files = fs.readdirSync(dir).sort();
    expect(files).toEqual([`${first.outboxId}.eml`, `${second.outboxId}.eml`]);

    const parsed = await simpleParser(fs.readFileSync(path.join(dir, `${second.outboxId}.eml`)));
    expect(parsed.subject).toBe("Recordatorio: semana incompleta");
    expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.text : "").toBe("dos@prueba.mx");
    expect(parsed.from?.value[0]).toMatchObject({ name: "SIA", address: "sia@prueba.mx" });
    expect(parsed.attachments[0].content.toString("utf8")).toBe(CSV);

    const { items, total } = await listOutbox(dir);
    expect(total).toBe(2);
    expect(items.map((i) => i.subject)).toEqual(["Recordatorio: semana incompleta", "Primero"]);
    expect(items[0]).toMatchObject({ id: second.outboxId, to: "dos@prueba.mx", attachments: [{ filename: "reporte.csv" }] });

    const message = await readOutbox(dir, second.outboxId as string);
    expect(message?.text.trim()).toBe("Registraste 32 h de 40 h.");
    expect(await readOutbox(dir, "../../etc/passwd")).toBeNull();
    expect(await readOutbox(dir, "20300101T000000000Z-00000000")).toBeNull();
  });
});

describe("configuration of mail and jobs", () => {
  const base = { NODE_ENV: "test" };
  it("accepts the defaults and valid values", () => {
    const config = loadConfig(base);
    expect(config).toMatchObject({ JOBS_TIMEZONE: "America/Mexico_City", WEEKLY_JOBS_TIME: "09:00" });
    expect(config.SMTP_URL).toBeUndefined();
    expect(
      loadConfig({
        ...base,
        SMTP_URL: "smtps://u:p@mail.prueba.mx:465",
        JOBS_TIMEZONE: "Europe/Madrid",
        WEEKLY_JOBS_TIME: "07:30",
      }),
    ).toMatchObject({
      SMTP_URL: "smtps://u:p@mail.prueba.mx:465",
      JOBS_TIMEZONE: "Europe/Madrid",
    });
  });
  it("refuses bad values with Spanish messages", () => {
    expect(() => loadConfig({ ...base, SMTP_URL: "http://mail" })).toThrow(/SMTP_URL: debe ser una URL smtp:\/\/ o smtps:\/\//);
    expect(() => loadConfig({ ...base, JOBS_TIMEZONE: "Marte/Olympus" })).toThrow(
      /JOBS_TIMEZONE: debe ser una zona horaria IANA válida/,
    );
    expect(() => loadConfig({ ...base, WEEKLY_JOBS_TIME: "9am" })).toThrow(/WEEKLY_JOBS_TIME: debe tener el formato HH:MM/);
  });
});

describe("outbox routes", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it("are for administrators only, and list and open what the app's mail port wrote", async () => {
    const sent = await t.app.mail.send({ to: "alguien@prueba.mx", subject: "Hola desde SIA", text: "Cuerpo del mensaje" });
    expect(fs.existsSync(path.join(outboxDir(t.app.config), `${sent.outboxId}.eml`))).toBe(true);

    expect((await call(t.app, "GET", "/api/v1/outbox")).status).toBe(401);
    expect((await call(t.app, "GET", `/api/v1/outbox/${sent.outboxId}`)).status).toBe(401);
    for (const role of ["operator", "finance"] as const) {
      const { api } = await signInAs(t.app, role);
      expect((await api.get("/api/v1/outbox")).status).toBe(403);
      expect((await api.get(`/api/v1/outbox/${sent.outboxId}`)).status).toBe(403);
    }
    const { api } = await signInAs(t.app, "admin");
    const list = await api.get("/api/v1/outbox");
    expect(list.status).toBe(200);
    expect(list.body.meta).toMatchObject({ total_count: 1, adapter: "outbox" });
    expect(list.body.outbox[0]).toMatchObject({ id: sent.outboxId, to: "alguien@prueba.mx", subject: "Hola desde SIA" });
    const one = await api.get(`/api/v1/outbox/${sent.outboxId}`);
    expect(one.status).toBe(200);
    expect(one.body.outbox.text.trim()).toBe("Cuerpo del mensaje");
    expect((await api.get("/api/v1/outbox/no-existe")).status).toBe(404);
    const raw = await api.get(`/api/v1/outbox/${sent.outboxId}/eml`);
    expect(raw.status).toBe(200);
    expect(raw.headers["content-type"]).toContain("message/rfc822");
    expect((await simpleParser(raw.text)).subject).toBe("Hola desde SIA");
    expect((await api.get("/api/v1/outbox/no-existe/eml")).status).toBe(404);
    const { api: operator } = await signInAs(t.app, "operator");
    expect((await operator.get(`/api/v1/outbox/${sent.outboxId}/eml`)).status).toBe(403);
    const bad = await api.get("/api/v1/outbox?per_page=abc");
    expect(bad.status).toBe(422);
  });
});
