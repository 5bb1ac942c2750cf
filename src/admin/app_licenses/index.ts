export { appLicenses } from "./AppLicenseScreens";
