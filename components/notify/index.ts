/** The notifications' screens: the manager's contact points and routes, an alert's delivery log. */
export { DeliveryLog } from "./delivery-log";
export { NotifyScreen } from "./notify-screen";
