/** Every declared resource of the API, registered by server/app.ts. */
import { clientsResource } from "./clients/resource";

export const resources = [clientsResource];
