export { prospects } from "./ProspectScreens";
