/**
 * The rear camera for scanning, and what to tell staff when it cannot be had. Browsers give the
 * camera only to secure pages (HTTPS, or http://localhost) and only after the person allows it.
 */

/** Opens the rear camera ("environment"; a laptop's only camera otherwise), without sound. */
export function openRearCamera(): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia) {
    return Promise.reject(
      new DOMException(window.isSecureContext ? "no camera API" : "insecure page", "NotSupportedError"),
    );
  }
  return navigator.mediaDevices.getUserMedia({
    audio: false,
    video: { facingMode: "environment", width: { ideal: 1280 }, height: { ideal: 720 } },
  });
}

/** Stops every track of a stream: the camera's light goes off. */
export function stopCamera(stream: MediaStream | null | undefined) {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

export type CameraProblem = "refused" | "missing" | "busy" | "unsupported" | "insecure" | "failed";

/**
 * Which failure to open the camera this is (`secure`: whether the page is HTTPS or localhost); its
 * plain words are the message `camera.<problem>`.
 */
export function cameraProblem(err: unknown, secure: boolean): CameraProblem {
  const name = err instanceof DOMException || err instanceof Error ? err.name : "";
  switch (name) {
    case "NotAllowedError":
    case "SecurityError":
      return "refused";
    case "NotFoundError":
    case "OverconstrainedError":
      return "missing";
    case "NotReadableError":
    case "AbortError":
      return "busy";
    case "NotSupportedError":
      return secure ? "unsupported" : "insecure";
    default:
      return "failed";
  }
}
