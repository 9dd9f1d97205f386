/**
 * What other screens may use of the sales': the right-now panel (the wall shows it with
 * `size="wall"`). The rest of this folder is the live screens' own.
 */
export { RightNowFigures, RightNowPanel, type RightNowSize } from "./right-now-panel";
