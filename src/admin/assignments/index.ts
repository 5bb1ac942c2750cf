export { assignments } from "./AssignmentScreens";
