import { OkAnswer } from "../auth";
import {
  ContactInput,
  ContactPoint,
  Delivery,
  DeliveryLog,
  IdSegment,
  NotifySettings,
  Route,
  RouteInput,
} from "../notify";
import { AlertSegment } from "../params";
import { endpoint } from "./define";

/** Alerts that find people: contact points and routes (managers), and each alert's delivery log. */
export const notify = {
  settings: endpoint({
    name: "notify.settings",
    summary: "Contact points (their secrets never shown back) and routes of the alerts.",
    method: "GET",
    path: "/api/notify",
    permission: "contacts.manage",
    answer: NotifySettings,
    refresh: "live",
    // Changed only by this screen's own writes.
    pushedBy: [],
  }),
  addContact: endpoint({
    name: "notify.add_contact",
    summary: "Adds a contact point: an e-mail address or a webhook (its URL is kept sealed).",
    method: "POST",
    path: "/api/notify/contacts",
    permission: "contacts.manage",
    body: ContactInput,
    answer: ContactPoint,
    status: 201,
    refresh: "once",
  }),
  removeContact: endpoint({
    name: "notify.remove_contact",
    summary: "Removes a contact point (its delivery log stays, under its name).",
    method: "DELETE",
    path: "/api/notify/contacts/{id}",
    permission: "contacts.manage",
    params: IdSegment,
    answer: OkAnswer,
    refresh: "once",
  }),
  testContact: endpoint({
    name: "notify.test_contact",
    summary: "Sends a test message to a contact point now and answers how it went.",
    method: "POST",
    path: "/api/notify/contacts/{id}/test",
    permission: "contacts.manage",
    params: IdSegment,
    answer: Delivery,
    refresh: "once",
  }),
  addRoute: endpoint({
    name: "notify.add_route",
    summary:
      "Adds a route: a kind and severity to contact points or roles, with grouping, quiet hours, escalation.",
    method: "POST",
    path: "/api/notify/routes",
    permission: "contacts.manage",
    body: RouteInput,
    answer: Route,
    status: 201,
    refresh: "once",
  }),
  removeRoute: endpoint({
    name: "notify.remove_route",
    summary: "Removes a route.",
    method: "DELETE",
    path: "/api/notify/routes/{id}",
    permission: "contacts.manage",
    params: IdSegment,
    answer: OkAnswer,
    refresh: "once",
  }),
  deliveries: endpoint({
    name: "notify.deliveries",
    summary: "An alert's delivery log: every message made of it, sent, retrying or failed (with the reason).",
    method: "GET",
    path: "/api/alerts/{id}/deliveries",
    permission: "alerts.view",
    params: AlertSegment,
    answer: DeliveryLog,
    refresh: "live",
    // The sender writes the log between cycles; the 30 s poll is its floor.
    pushedBy: ["alerts", "cycle"],
  }),
};
