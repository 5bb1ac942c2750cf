export { activityTypeCatalogs } from "./ActivityTypeScreens";
