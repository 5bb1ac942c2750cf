export { projectTypes } from "./ProjectTypeScreens";
