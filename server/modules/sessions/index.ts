/** What the app uses of the sessions module. */
export { sessionRoutes } from "./routes";
