import "server-only";

export { PushBus, type PushEvent, type PushSignal, pushBus } from "./bus";
export { type EventStreamOptions, eventStream, STREAM_HEADERS } from "./event-stream";
