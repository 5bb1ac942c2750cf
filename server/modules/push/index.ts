/** What the app uses of the push module. */
export { PushQueue } from "./service";
