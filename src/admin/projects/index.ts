export { projects } from "./ProjectScreens";
