import { gateSettingsView, saveGateSettings } from "@/lib/server/gates/views";
import { handle } from "@/lib/server/http/handle";
import { endpoints } from "@/lib/shared/api/endpoints";

export const GET = handle(endpoints.gates.settings, ({ dashboard }) => gateSettingsView(dashboard.db));

export const PUT = handle(endpoints.gates.saveSettings, ({ body, user, dashboard }) =>
  saveGateSettings(dashboard.db, user, body, dashboard.clock()),
);
