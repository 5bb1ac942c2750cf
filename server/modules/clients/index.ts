/** What other modules use of the clients module. */
export { clientsResource, nextClientCode } from "./resource";
export { warnSimilarClients } from "./similar";
