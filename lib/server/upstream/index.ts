import "server-only";

export * from "./client";
