export { appSettings } from "./AppSettingsScreens";
