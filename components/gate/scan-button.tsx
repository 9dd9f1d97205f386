"use client";

import dynamic from "next/dynamic";
import { useTranslations } from "next-intl";
import { useEffect, useRef, useState } from "react";
import { secondaryButtonClass } from "@/components/ui/class-names";
import { audioForBeep, signalRead } from "./scan-feedback";

// The dialog, the camera and the code reader load on the first "Scan", not with the page.
const ScannerDialog = dynamic(() => import("./scanner-dialog").then((m) => m.ScannerDialog), { ssr: false });

/**
 * "Scan": reads a code with the camera and hands it over, with a beep and a buzz. `label` is the
 * button's name for screen readers when "Scan" alone would not say what for (the wristband).
 */
export function ScanButton({
  onCode,
  label,
  title,
}: {
  onCode: (code: string) => void;
  label?: string;
  title?: string;
}) {
  const t = useTranslations("scan");
  const [open, setOpen] = useState(false);
  const audio = useRef<AudioContext | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  function start() {
    audio.current ??= audioForBeep();
    void audio.current?.resume();
    setOpen(true);
  }
  const wasOpen = useRef(false);
  // Back to the button once the dialog is gone (a modal dialog keeps focus while it is open).
  useEffect(() => {
    if (wasOpen.current && !open) button.current?.focus();
    wasOpen.current = open;
  }, [open]);
  const close = () => setOpen(false);
  return (
    <>
      <button ref={button} type="button" aria-label={label} onClick={start} className={secondaryButtonClass}>
        <span className="flex items-center gap-1.5">
          <CameraIcon />
          {t("button")}
        </span>
      </button>
      {open && (
        <ScannerDialog
          title={title ?? t("title")}
          onClose={close}
          onCode={(code) => {
            signalRead(audio.current);
            close();
            onCode(code);
          }}
        />
      )}
    </>
  );
}

function CameraIcon() {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 20 20"
      className="size-4"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
    >
      <path d="M3 7.5A1.5 1.5 0 0 1 4.5 6h2l1.5-2h4l1.5 2h2A1.5 1.5 0 0 1 17 7.5v7a1.5 1.5 0 0 1-1.5 1.5h-11A1.5 1.5 0 0 1 3 14.5z" />
      <circle cx="10" cy="11" r="3" />
    </svg>
  );
}
