export * from "./admin";
export * from "./errors";
export * from "./params";
export * from "./requests";
export * from "./resources";
