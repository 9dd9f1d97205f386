/**
 * The console's colour theme: the system's (the default), light or dark. Kept with the account (it
 * follows the user to any browser) and in a cookie, so the server paints the first frame in it.
 */
export const themes = ["system", "light", "dark"] as const;
export type Theme = (typeof themes)[number];

export const THEME_COOKIE = "eoc_theme";

export function isTheme(value: unknown): value is Theme {
  return typeof value === "string" && (themes as readonly string[]).includes(value);
}

/**
 * The class on <html>: `dark` or `light` for a choice, none for the system's (the stylesheet then
 * follows `prefers-color-scheme` by itself, before any script runs: no flash).
 */
export function themeClass(theme: Theme): string | undefined {
  return theme === "system" ? undefined : theme;
}
