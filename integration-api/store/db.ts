// The service's store uses the shared PGlite/PostgreSQL adapter (lib/db), as the dashboard does.
export * from "../../lib/db/db";
