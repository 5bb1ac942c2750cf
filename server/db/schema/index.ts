export * from "./commercial";
export * from "./people";
export * from "./projects";
export * from "./time";
