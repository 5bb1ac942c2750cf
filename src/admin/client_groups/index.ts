export { clientGroups } from "./ClientGroupScreens";
