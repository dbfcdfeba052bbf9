export type { AppRouter } from "./root.js";
