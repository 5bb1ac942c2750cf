/** What other modules use of the notifications module: the one way to notify someone. */
export { type Notified, notify, pushNotified } from "./service";
