import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./admin/App";
import { startTimesheet } from "./timesheet/early";

// The timesheet's chunk and first data start loading now, not after the first render (issue 10).
startTimesheet();

const root = document.getElementById("root");
if (!root) throw new Error("No se encontró el elemento raíz");
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
