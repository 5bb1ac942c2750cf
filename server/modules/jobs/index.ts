/** What the app uses of the jobs module. */
export { jobsRoutes } from "./routes";
