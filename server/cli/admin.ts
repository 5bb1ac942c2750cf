/**
 * The core of `npm run create-admin`: creates or promotes an administrator, with an employee so the
 * account can use the app. Kept apart from the command line so tests call it directly.
 */
import { eq, sql } from "drizzle-orm";
import { hashPassword } from "../auth/passwords";
import { type Config, loadConfig, PUBLIC_DEMO_PASSWORD } from "../config";
import { createDb, type Database, DataDirLockedError, type Db } from "../db/client";
import { dbErrorReason } from "../db/errors";
import { app_settings, employees, sessions, users } from "../db/schema";
import { seedBase } from "../db/seed";
import { parseCliArgs } from "./args";
import { askRunningServer } from "./localEndpoint";

export const MIN_PASSWORD_LENGTH = 8;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Bad input: the message is for the person at the terminal. */
export class AdminInputError extends Error {}

export interface CreateAdminInput {
  email: string;
  password: string;
  name?: string;
}

export interface CreateAdminResult {
  userId: number;
  employeeId: number;
  email: string;
  createdUser: boolean;
  createdEmployee: boolean;
}

export function validateAdminInput(input: Partial<CreateAdminInput>): CreateAdminInput {
  const email = (input.email ?? "").trim().toLowerCase();
  if (!email) throw new AdminInputError("Falta el correo electrónico (--email).");
  if (!EMAIL_PATTERN.test(email) || email.length > 254)
    throw new AdminInputError(`El correo electrónico "${email}" no es válido.`);
  const password = input.password ?? "";
  if (!password) throw new AdminInputError("Falta la contraseña (--password).");
  if (process.env.NODE_ENV === "production" && password === PUBLIC_DEMO_PASSWORD) {
    throw new AdminInputError(`«${PUBLIC_DEMO_PASSWORD}» es la contraseña pública de la demostración: elija otra.`);
  }
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new AdminInputError(`La contraseña debe tener al menos ${MIN_PASSWORD_LENGTH} caracteres.`);
  }
  const name = input.name?.trim();
  if (name !== undefined && (name.length === 0 || name.length > 200)) {
    throw new AdminInputError("El nombre debe tener entre 1 y 200 caracteres.");
  }
  return { email, password, name };
}

/** Creates the administrator, or gives an existing user (same e-mail, any case) the role and password. */
export async function createAdmin(db: Db, input: CreateAdminInput): Promise<CreateAdminResult> {
  const { email, password, name } = validateAdminInput(input);
  const digest = await hashPassword(password);
  return db.transaction(async (tx) => {
    const [existing] = await tx.select().from(users).where(sql`lower(${users.email}) = ${email}`).limit(1);
    let userId: number;
    let userName: string;
    if (existing) {
      userName = name ?? existing.name;
      await tx
        .update(users)
        .set({
          name: userName,
          administrator_role: true,
          password_digest: digest,
          password_changed_at: new Date(),
        })
        .where(eq(users.id, existing.id));
      // A new password ends every session of the account, as a password change in the app does (its
      // old password may be what someone else knows).
      await tx.delete(sessions).where(eq(sessions.user_id, existing.id));
      userId = existing.id;
    } else {
      userName = name ?? "Administrador";
      const [created] = await tx
        .insert(users)
        .values({
          name: userName,
          email,
          password_digest: digest,
          administrator_role: true,
        })
        .returning({ id: users.id });
      userId = created.id;
    }

    const [employee] = await tx.select().from(employees).where(eq(employees.user_id, userId)).limit(1);
    if (employee) {
      // An inactive employee cannot sign in: the administrator must be able to.
      if (!employee.is_active) await tx.update(employees).set({ is_active: true }).where(eq(employees.id, employee.id));
      return {
        userId,
        employeeId: employee.id,
        email,
        createdUser: !existing,
        createdEmployee: false,
      };
    }
    const [settings] = await tx.select().from(app_settings).where(eq(app_settings.id, 1)).limit(1);
    const [createdEmployee] = await tx
      .insert(employees)
      .values({
        name: userName,
        user_id: userId,
        is_admin_group: true,
        workspace_id: settings?.default_workspace_id ?? null,
      })
      .returning({ id: employees.id });
    return {
      userId,
      employeeId: createdEmployee.id,
      email,
      createdUser: !existing,
      createdEmployee: true,
    };
  });
}

const USAGE = 'Uso: npm run create-admin -- --email correo@empresa.mx --password "contraseña" [--name "Nombre"]';

export interface Output {
  out(line: string): void;
  err(line: string): void;
}
const consoleOutput: Output = {
  out: (l) => console.log(l),
  err: (l) => console.error(l),
};

function report(result: CreateAdminResult, io: Output) {
  io.out(
    result.createdUser
      ? `Administrador creado: ${result.email} (usuario ${result.userId}, empleado ${result.employeeId}).`
      : `Usuario existente ${result.email} promovido a administrador y con contraseña nueva (usuario ${result.userId}, empleado ${result.employeeId}).`,
  );
  if (result.createdEmployee) io.out("Se le dio de alta como empleado.");
}

/** The whole command: returns the process exit code (0 done, 1 refused). */
export async function runCreateAdmin(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: Output = consoleOutput,
): Promise<number> {
  let input: CreateAdminInput;
  try {
    const values = parseCliArgs(argv, {
      email: { type: "string" },
      password: { type: "string" },
      name: { type: "string" },
    });
    input = validateAdminInput(values);
  } catch (error) {
    // Both refusals (AdminInputError, ArgsError) are already Spanish sentences for the terminal.
    io.err((error as Error).message);
    io.err(USAGE);
    return 1;
  }

  let database: Database;
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (error) {
    io.err(`La configuración no es válida: ${(error as Error).message}`);
    return 1;
  }
  try {
    database = await createDb(config);
  } catch (error) {
    if (error instanceof DataDirLockedError) {
      // The running server holds the embedded database: it does the work (./localEndpoint.ts).
      const answer = await askRunningServer(config, input);
      if (answer?.ok) {
        report(answer.result, io);
        io.out("Hecho a través del servidor SIA en ejecución.");
        return 0;
      }
      io.err(error.message);
      if (answer) io.err(answer.reason);
      io.err("Detenga el servidor SIA y vuelva a ejecutar create-admin.");
    } else {
      io.err(`No se pudo abrir la base de datos: ${(error as Error).message}`);
    }
    return 1;
  }

  try {
    await database.migrate();
    await seedBase(database.db);
    report(await createAdmin(database.db, input), io);
    return 0;
  } catch (error) {
    io.err(error instanceof AdminInputError ? error.message : `No se pudo crear el administrador: ${dbErrorReason(error)}`);
    return 1;
  } finally {
    await database.close();
  }
}
