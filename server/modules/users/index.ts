/** What other modules and the app use of the users module. */
export { encryptStoredSecrets, storeCloudToken } from "./service";
