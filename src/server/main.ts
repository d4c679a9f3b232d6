import { runPlatformProcess } from "./run";

/** `npm start` runs this (scripts/start.ts, after building the browser apps when needed): the platform, its banner, a clean stop. */
runPlatformProcess();
