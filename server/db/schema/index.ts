import { qualifyVersionBumps } from "./_helpers";
import * as commercial from "./commercial";
import * as people from "./people";
import * as projects from "./projects";
import * as time from "./time";

export * from "./commercial";
export * from "./people";
export * from "./projects";
export * from "./time";

qualifyVersionBumps({ ...commercial, ...people, ...projects, ...time });
