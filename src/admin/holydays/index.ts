export { holydays } from "./HolidayScreens";
