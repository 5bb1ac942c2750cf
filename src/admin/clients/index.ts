export { clients } from "./ClientScreens";
