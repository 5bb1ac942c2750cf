export { ownProfilePath, users } from "./UserScreens";
