import { createRoute, z } from "@hono/zod-openapi";
import { ApiKeyList, ApiKeyView, CreatedKey, CreateKeyRequest, LedgerReport } from "../../lib/contract/admin";
import { requireAdmin } from "../http/admin-auth";
import { errorResponse, json } from "./route-kit";

/** The organiser's key administration, outside /v1, behind `Authorization: Bearer $API_ADMIN_TOKEN`. */

const KeyIdParam = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" } }),
});

const adminErrors = {
  401: errorResponse("missing_admin_token or invalid_admin_token."),
  500: errorResponse("internal_error."),
};

export const createKeyRoute = createRoute({
  method: "post",
  path: "/keys",
  summary: "Issue an API key (shown once)",
  middleware: [requireAdmin],
  request: { body: { required: true, content: { "application/json": { schema: CreateKeyRequest } } } },
  responses: {
    201: json(CreatedKey, "The key, with its secret: the only time it is shown."),
    400: errorResponse("Invalid body."),
    ...adminErrors,
  },
});

export const listKeysRoute = createRoute({
  method: "get",
  path: "/keys",
  summary: "List API keys (never their secrets)",
  middleware: [requireAdmin],
  responses: { 200: json(ApiKeyList, "Every key."), ...adminErrors },
});

export const activateKeyRoute = createRoute({
  method: "post",
  path: "/keys/{id}/activate",
  summary: "Activate a key with write scopes",
  middleware: [requireAdmin],
  request: { params: KeyIdParam },
  responses: {
    200: json(ApiKeyView, "The key."),
    404: errorResponse("key_not_found."),
    409: errorResponse("key_revoked."),
    ...adminErrors,
  },
});

export const revokeKeyRoute = createRoute({
  method: "post",
  path: "/keys/{id}/revoke",
  summary: "Revoke a key (effective on its next request)",
  middleware: [requireAdmin],
  request: { params: KeyIdParam },
  responses: { 200: json(ApiKeyView, "The key."), 404: errorResponse("key_not_found."), ...adminErrors },
});

export const ledgerRoute = createRoute({
  method: "get",
  path: "/ledger",
  summary: "Verify every wristband's balances against its records (first 20 differences)",
  middleware: [requireAdmin],
  responses: { 200: json(LedgerReport, "The verification."), ...adminErrors },
});
