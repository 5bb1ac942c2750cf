/** What other modules and the app use of the drive module: records' folders, drive work, the routes. */
export {
  assertFolderFree,
  assertParentFree,
  keepVersion,
  placeProjectFolder,
  projectsOfClient,
  renameOwnFolder,
} from "./folders";
export { driveApiRoutes, driveFileRoutes } from "./routes";
export {
  driveFailure,
  driveWorkOf,
  resolveDriveFolder,
  touchesFolder,
  undoDriveWorkOnFailure,
  withDriveWork,
} from "./service";
