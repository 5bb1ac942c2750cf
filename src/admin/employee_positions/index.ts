export { employeePositions } from "./EmployeePositionScreens";
