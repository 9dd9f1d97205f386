"use client";

import { useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import { secondaryButtonClass } from "@/components/ui/class-names";
import { type CameraProblem, cameraProblem, openRearCamera, stopCamera } from "./camera";
import { createCodeReader } from "./code-reader";

/** How often a frame is read while nothing has been found (ms). */
const READ_EVERY_MS = 150;

type State =
  | { kind: "starting" }
  | { kind: "scanning" }
  | { kind: "failed"; problem: CameraProblem | "reader" };

/**
 * The camera's picture in a modal dialog until a code is read (`onCode`, once) or the person
 * closes it (Close, Escape). The camera stops as soon as the dialog goes (read, closed, unmounted)
 * and when the page is hidden (another app, a locked phone), which closes the dialog too.
 * Loaded only when a scan starts (next/dynamic), with the code reader it needs.
 */
export function ScannerDialog({
  title,
  onCode,
  onClose,
}: {
  title: string;
  onCode: (code: string) => void;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const video = useRef<HTMLVideoElement>(null);
  const t = useTranslations();
  const [state, setState] = useState<State>({ kind: "starting" });
  // The latest callbacks, so that the camera's effect runs once per opening.
  const callbacks = useRef({ onCode, onClose });
  callbacks.current = { onCode, onClose };

  useEffect(() => {
    if (!dialog.current?.open) dialog.current?.showModal();
    let done = false;
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = () => {
      done = true;
      clearTimeout(timer);
      stopCamera(stream);
      stream = null;
    };
    (async () => {
      const reading = createCodeReader();
      // Not waiting for the reader first: the permission prompt shows while it loads.
      let media: MediaStream;
      try {
        media = await openRearCamera();
      } catch (err) {
        reading.catch(() => {});
        if (!done) setState({ kind: "failed", problem: cameraProblem(err, window.isSecureContext) });
        return;
      }
      if (done) return stopCamera(media);
      stream = media;
      let reader: Awaited<typeof reading>;
      try {
        reader = await reading;
        const el = video.current!;
        el.srcObject = media;
        await el.play();
      } catch {
        stop();
        setState({ kind: "failed", problem: "reader" });
        return;
      }
      if (done) return;
      setState({ kind: "scanning" });
      const readFrame = async () => {
        const code = await reader.read(video.current!).catch(() => null);
        if (done) return;
        if (!code) {
          timer = setTimeout(readFrame, READ_EVERY_MS);
          return;
        }
        stop();
        callbacks.current.onCode(code);
      };
      void readFrame();
    })();
    const closeWhenHidden = () => {
      if (document.visibilityState !== "hidden") return;
      stop();
      callbacks.current.onClose();
    };
    document.addEventListener("visibilitychange", closeWhenHidden);
    return () => {
      document.removeEventListener("visibilitychange", closeWhenHidden);
      stop();
    };
  }, []);

  return (
    <dialog
      ref={dialog}
      aria-labelledby="scanner-title"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      className="m-auto w-[min(100vw-2rem,32rem)] rounded-lg bg-white p-4 text-slate-900 shadow-xl backdrop:bg-slate-900/70"
    >
      <h2 id="scanner-title" className="mb-2 font-semibold">
        {title}
      </h2>
      <div className="relative aspect-[4/3] overflow-hidden rounded bg-slate-900">
        <video
          ref={video}
          aria-label={t("scan.picture")}
          muted
          playsInline
          className={`size-full object-cover ${state.kind === "scanning" ? "" : "invisible"}`}
        />
        {state.kind === "scanning" && (
          <div
            aria-hidden="true"
            className="pointer-events-none absolute inset-[15%] rounded border-2 border-white/80"
          />
        )}
      </div>
      {state.kind === "failed" ? (
        <p role="alert" className="mt-3 rounded border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {state.problem === "reader" ? t("scan.readerFailed") : t(`camera.${state.problem}`)}
        </p>
      ) : (
        <p role="status" className="mt-3 text-sm text-slate-700">
          {state.kind === "starting" ? t("scan.starting") : t("scan.hold")}
        </p>
      )}
      <div className="mt-3 flex justify-end">
        <button type="button" className={secondaryButtonClass} onClick={onClose}>
          {t("scan.close")}
        </button>
      </div>
    </dialog>
  );
}
