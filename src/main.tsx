import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./admin/App";
import { startTimesheet } from "./timesheet/data/prefetch";

// The timesheet's chunk and first data start loading now, not after the first render.
startTimesheet();

const root = document.getElementById("root");
if (!root) throw new Error("No se encontró el elemento raíz");
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
