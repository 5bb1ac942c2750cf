/** `npm run dev`: the API server (restarted on change by tsx watch) and Vite's dev server with hot reload. */
import { spawn } from "node:child_process";

const children = [
  spawn("npx", ["tsx", "watch", "--clear-screen=false", "server/main.ts"], { stdio: "inherit" }),
  spawn("npx", ["vite"], { stdio: "inherit" }),
];
const stop = () => {
  for (const child of children) child.kill("SIGTERM");
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
console.log("SIA en desarrollo: interfaz en http://127.0.0.1:5173/app/activities (API en el puerto 3000)");
