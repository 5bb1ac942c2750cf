export { workspaces } from "./WorkspaceScreens";
