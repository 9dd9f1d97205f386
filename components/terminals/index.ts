/** What other screens may use of the terminals': a terminal's state in words and colour. */
export { StateBadge } from "./state-badge";
