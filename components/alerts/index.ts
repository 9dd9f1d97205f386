/** What other screens may use of the alerts': an alert's severity in words and colour. */
export { SeverityBadge } from "./severity-badge";
