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

/** Plain words for a failure to open the camera (`secure`: whether the page is HTTPS or localhost). */
export function cameraProblem(err: unknown, secure: boolean): string {
  const name = err instanceof DOMException || err instanceof Error ? err.name : "";
  switch (name) {
    case "NotAllowedError":
    case "SecurityError":
      return "Camera access was refused. Allow the camera for this site in the browser's settings, or type the code.";
    case "NotFoundError":
    case "OverconstrainedError":
      return "No camera was found on this device. Type the code instead.";
    case "NotReadableError":
    case "AbortError":
      return "The camera is busy (another app may be using it). Close that app and try again, or type the code.";
    case "NotSupportedError":
      return secure
        ? "This browser cannot use the camera. Type the code instead."
        : "The camera only works on a secure (HTTPS) address. Type the code instead.";
    default:
      return "The camera could not be started. Type the code instead.";
  }
}
