/** What other modules and the app use of the users module. */
export { assertAdministratorRemains, encryptStoredSecrets, storeCloudToken } from "./service";
