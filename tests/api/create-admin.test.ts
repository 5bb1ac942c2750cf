import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyPassword } from "../../server/auth/passwords";
import { AdminInputError, createAdmin, runCreateAdmin } from "../../server/cli/admin";
import type { Database } from "../../server/db/client";
import { employees, sessions, users } from "../../server/db/schema";
import { seedBase } from "../../server/db/seed";
import { openTestDatabase } from "../support/app";

let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
  await seedBase(database.db);
});
afterAll(() => database.close());

const captured = () => {
  const lines: { out: string[]; err: string[] } = { out: [], err: [] };
  return {
    lines,
    io: {
      out: (l: string) => lines.out.push(l),
      err: (l: string) => lines.err.push(l),
    },
  };
};

describe("createAdmin", () => {
  it("creates an administrator with an employee", async () => {
    const result = await createAdmin(database.db, {
      email: " Jefa@Empresa.MX ",
      password: "contraseña-larga",
      name: "Laura Núñez",
    });
    expect(result).toMatchObject({
      email: "jefa@empresa.mx",
      createdUser: true,
      createdEmployee: true,
    });
    const [user] = await database.db.select().from(users).where(eq(users.id, result.userId));
    expect(user).toMatchObject({
      name: "Laura Núñez",
      email: "jefa@empresa.mx",
      administrator_role: true,
    });
    expect(await verifyPassword(user.password_digest, "contraseña-larga")).toBe(true);
    const [employee] = await database.db.select().from(employees).where(eq(employees.user_id, result.userId));
    expect(employee).toMatchObject({
      id: result.employeeId,
      name: "Laura Núñez",
      is_active: true,
    });
  });

  it("promotes an existing user (any case of the e-mail) without duplicating it, and reactivates its employee", async () => {
    const [existing] = await database.db
      .insert(users)
      .values({
        name: "Pedro Ruiz",
        email: "pedro@empresa.mx",
        operator_role: true,
      })
      .returning();
    await database.db.insert(employees).values({ name: "Pedro Ruiz", user_id: existing.id, is_active: false });
    // A session opened with the old password: the new one ends it, as a change in the app does.
    await database.db
      .insert(sessions)
      .values({ token_hash: "p".repeat(64), user_id: existing.id, expires_at: new Date(Date.now() + 86_400_000) });
    const result = await createAdmin(database.db, {
      email: "PEDRO@empresa.mx",
      password: "nueva-clave-1",
    });
    expect(result).toMatchObject({
      userId: existing.id,
      createdUser: false,
      createdEmployee: false,
    });
    const rows = await database.db.select().from(users).where(sql`lower(${users.email}) = 'pedro@empresa.mx'`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      name: "Pedro Ruiz",
      administrator_role: true,
      operator_role: true,
    });
    expect(rows[0].password_changed_at).not.toBeNull();
    expect(await verifyPassword(rows[0].password_digest, "nueva-clave-1")).toBe(true);
    const [employee] = await database.db.select().from(employees).where(eq(employees.user_id, existing.id));
    expect(employee.is_active).toBe(true);
    expect(await database.db.select().from(sessions).where(eq(sessions.user_id, existing.id))).toEqual([]);
  });

  it("refuses bad input with Spanish messages", async () => {
    await expect(
      createAdmin(database.db, {
        email: "no-es-correo",
        password: "suficiente",
      }),
    ).rejects.toThrow(/no es válido/);
    await expect(createAdmin(database.db, { email: "a@b.mx", password: "corta" })).rejects.toThrow(
      "La contraseña debe tener al menos 8 caracteres.",
    );
    await expect(
      createAdmin(database.db, {
        email: "a@b.mx",
        password: "suficiente",
        name: "   ",
      }),
    ).rejects.toBeInstanceOf(AdminInputError);
    expect((await database.rows<{ n: number }>(sql`select count(*)::int n from users where email = 'a@b.mx'`))[0].n).toBe(0);
  });
});

describe("runCreateAdmin", () => {
  it("exits 1 with the usage on missing or unknown arguments, before opening any database", async () => {
    const { lines, io } = captured();
    expect(await runCreateAdmin(["--email", "x@y.mx"], { DATA_DIR: "/nonexistent/sia" }, io)).toBe(1);
    expect(lines.err.join("\n")).toMatch(/Falta la contraseña[\s\S]*Uso: npm run create-admin/);
    const other = captured();
    expect(await runCreateAdmin(["--correo", "x@y.mx"], { DATA_DIR: "/nonexistent/sia" }, other.io)).toBe(1);
    expect(other.lines.err[0]).toBe("Opción desconocida: --correo.");
    const noValue = captured();
    expect(await runCreateAdmin(["--email"], { DATA_DIR: "/nonexistent/sia" }, noValue.io)).toBe(1);
    expect(noValue.lines.err[0]).toBe("Falta el valor de --email.");
  });

  it("refuses cleanly when a running server holds the data folder", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sia-lock-"));
    try {
      // The parent process (the test runner) is alive and is not us: the lock counts as held.
      fs.writeFileSync(path.join(dir, "sia.lock"), String(process.ppid));
      const { lines, io } = captured();
      expect(await runCreateAdmin(["--email", "jefa@empresa.mx", "--password", "contraseña-larga"], { DATA_DIR: dir }, io)).toBe(
        1,
      );
      expect(lines.err.join("\n")).toMatch(/ya está en uso por otro servidor SIA/);
      expect(lines.out).toEqual([]);
      expect(fs.readFileSync(path.join(dir, "sia.lock"), "utf8")).toBe(String(process.ppid));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
