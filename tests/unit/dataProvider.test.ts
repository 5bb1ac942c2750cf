import { afterEach, describe, expect, it, vi } from "vitest";
import { fieldLabel } from "../../src/admin/i18n/fieldLabels";
import { messages } from "../../src/core/messages";
import { baseDataProvider, downloadCsv, listQuery, provideFieldLabels } from "../../src/dataProvider";
import { resourceOfPath } from "../../src/dataProvider/fieldLabels";
import { errorFor, toQueryString, validationFromBody } from "../../src/dataProvider/http";

// As the admin app does at start (src/admin/App.tsx): the data provider names fields with the screens' labels.
provideFieldLabels(fieldLabel);

describe("dataProvider conventions", () => {
  it("maps react-admin list params onto /api/v1 list params", () => {
    const query = listQuery({
      pagination: { page: 3, perPage: 10 },
      sort: { field: "name", order: "DESC" },
      filter: { q: "perez", by_status: ["vigentes"], by_client_group: 4 },
    });
    expect(query).toEqual({
      page: 3,
      per_page: 10,
      "by_column[column]": "name",
      "by_column[order]": "desc",
      search: "perez",
      by_status: ["vigentes"],
      by_client_group: 4,
    });
    expect(toQueryString(query)).toBe(
      "?page=3&per_page=10&by_column%5Bcolumn%5D=name&by_column%5Border%5D=desc&search=perez&by_status=%5B%22vigentes%22%5D&by_client_group=4",
    );
  });

  it("turns a 422 into inline errors, one toast per field, and base errors as the message", () => {
    const body = {
      errors: { name: ["es obligatorio", "otro"], client_code: ["ya está en uso"], base: ["No se puede eliminar: x"] },
    };
    expect(validationFromBody(body)).toEqual({
      inline: { name: "es obligatorio", client_code: "ya está en uso" },
      fieldToasts: ["Error en los parametros Nombre: es obligatorio", "Error en los parametros Código: ya está en uso"],
      base: ["No se puede eliminar: x"],
    });
    const error = errorFor(422, body);
    expect(error.status).toBe(422);
    expect(error.message).toBe("No se puede eliminar: x");
    expect(error.body).toEqual({ errors: { name: "es obligatorio", client_code: "ya está en uso" } });
  });

  it("uses SPEC §8's messages for 401, 403 and unexpected failures", () => {
    expect(errorFor(401, { error: "x" }).message).toBe("Sin Autenticación");
    expect(errorFor(403, { error: "x" }).message).toBe("Error de Permisos");
    expect(errorFor(500, {}).message).toBe("Hubo un error inesperado. Favor de contactar al administrador del sistema");
  });

  describe("updates carry the version they read", () => {
    afterEach(() => vi.unstubAllGlobals());
    const answering = (status: number, body: unknown) => {
      const fetchMock = vi.fn(
        async () => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } }),
      );
      vi.stubGlobal("fetch", fetchMock);
      return fetchMock;
    };

    it("sends If-Match from the form's lock_version, never the version in the body", async () => {
      const fetchMock = answering(200, { client: { id: 7, name: "Nuevo", lock_version: 4 } });
      const { data } = await baseDataProvider.update("clients", {
        id: 7,
        data: { id: 7, name: "Nuevo", lock_version: 3 },
        previousData: { id: 7, name: "Viejo", lock_version: 2 },
      });
      expect(data.lock_version).toBe(4);
      const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
      expect((init.headers as Record<string, string>)["If-Match"]).toBe('"3"');
      expect(JSON.parse(String(init.body))).toEqual({ client: { name: "Nuevo" } });
    });

    it("falls back to the record it read, and a 409 keeps the server's record for the form", async () => {
      const fetchMock = answering(409, { error: messages.staleVersion, client: { id: 7, name: "Del otro", lock_version: 5 } });
      const failure = await baseDataProvider
        .update("clients", { id: 7, data: { name: "Mío" }, previousData: { id: 7, name: "Viejo", lock_version: 4 } })
        .catch((error) => error);
      const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
      expect((init.headers as Record<string, string>)["If-Match"]).toBe('"4"');
      expect(failure.status).toBe(409);
      expect(failure.message).toBe(messages.staleVersion);
      expect(failure.body.client).toEqual({ id: 7, name: "Del otro", lock_version: 5 });
    });
  });

  it("names each field of a 422 in Spanish, by the call's resource when known, never by its column", () => {
    expect(fieldLabel("employee_position_id", "estimated_work_hours")).toBe("Puesto");
    expect(fieldLabel("date_of_invoice", "invoices")).toBe("Fecha de facturación");
    expect(fieldLabel("event.starts_at", "quotations")).toBe("Fecha y hora del evento");
    expect(fieldLabel("client_product_catalogs_attributes.0.annual_support_hours", "clients")).toMatch(/^[A-ZÁÉÍÓÚ]/);
    expect(fieldLabel("invalid_transition")).toBe("Cambio de estado");
    expect(fieldLabel("some_unknown_key")).toBe("some unknown key");
    const { fieldToasts } = validationFromBody(
      { errors: { employee_position_id: ["Rellene todos los campos"] } },
      "estimated_work_hours",
    );
    expect(fieldToasts).toEqual(["Error en los parametros Puesto: Rellene todos los campos"]);
    expect(resourceOfPath("estimated_work_hours/3")).toBe("estimated_work_hours");
    expect(resourceOfPath("projects.csv")).toBe("projects");
  });
});

describe("downloadCsv, every download's one path", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  /** A document whose links record what they would save. */
  const savingDocument = () => {
    const saved: { href: string; download: string }[] = [];
    vi.stubGlobal("document", {
      createElement: () => {
        const link = {
          href: "",
          download: "",
          click: () => saved.push({ href: link.href, download: link.download }),
          remove() {},
        };
        return link;
      },
      body: { appendChild() {} },
    });
    vi.spyOn(URL, "createObjectURL").mockReturnValue("blob:x");
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
    return saved;
  };

  it("streams with progress, saves under the server's name, and falls back to the caller's", async () => {
    const saved = savingDocument();
    const fetchMock = vi.fn(
      async () =>
        new Response("a,b\n1,2\n", {
          status: 200,
          headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": 'attachment; filename="clientes.csv"' },
        }),
    );
    vi.stubGlobal("fetch", fetchMock);
    const progress: number[] = [];
    const answer = await downloadCsv("clients.csv", { search: "x" }, { onProgress: (bytes) => progress.push(bytes) });
    expect(answer).toEqual({ filename: "clientes.csv", bytes: 8 });
    expect(progress.at(-1)).toBe(8);
    expect(saved).toEqual([{ href: "blob:x", download: "clientes.csv" }]);
    expect((fetchMock.mock.calls[0] as unknown as [string])[0]).toBe("/api/v1/clients.csv?search=x");

    fetchMock.mockResolvedValueOnce(new Response("x", { status: 200 }));
    expect((await downloadCsv("holydays/download_holydays_format", {}, { fallbackName: "formato.csv" })).filename).toBe(
      "formato.csv",
    );
  });

  it("rejects a refused download as apiFetch does, and a timeout with SPEC §8's message", async () => {
    savingDocument();
    vi.stubGlobal("fetch", async () => new Response(JSON.stringify({ errors: { base: ["Rango no válido"] } }), { status: 422 }));
    await expect(downloadCsv("activities/reporting_activities.csv")).rejects.toMatchObject({
      status: 422,
      message: "Rango no válido",
    });
    vi.stubGlobal(
      "fetch",
      (_url: string, init: RequestInit) =>
        new Promise((_resolve, reject) =>
          init.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))),
        ),
    );
    await expect(downloadCsv("activities.csv", {}, { timeoutMs: 10 })).rejects.toMatchObject({
      status: -1,
      message: messages.unexpected,
    });
  });
});
