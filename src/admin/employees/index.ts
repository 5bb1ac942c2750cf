export { employees } from "./EmployeeScreens";
