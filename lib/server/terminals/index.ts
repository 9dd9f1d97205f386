import "server-only";

export { terminalsNotLive } from "./not-live";
/**
 * What other domains may use of the terminals': the rules that decide a terminal's state and the
 * settings they share (the alerts about quiet and offline terminals follow them). The rest of this
 * folder is its own.
 */
export {
  type AttentionSettings,
  BACK_WINDOW_MS,
  DEFAULT_ATTENTION,
  type DeviceActivity,
  type NightMoved,
  RHYTHM_RECORDS,
  RHYTHM_WINDOW_MS,
  terminalState,
} from "./terminal-rules";
