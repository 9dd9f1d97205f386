import "server-only";

/** Alerts that find people (issue 29): contact points, routes, the sender, the delivery log. */
export { ackToken, notifyKeys, readAckToken } from "./secrets";
export { NotifySender, senderLoop } from "./sender";
export {
  acknowledgeLink,
  addContact,
  addRoute,
  deliveryLog,
  linkBase,
  notifySettings,
  removeContact,
  removeRoute,
  senderFor,
  sendTest,
} from "./settings";
