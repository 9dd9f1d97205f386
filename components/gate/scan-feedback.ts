/**
 * The short beep and buzz that tell a person the code was read, without looking at the screen.
 * Browsers let a page play sound only after a tap: the audio context is made on the "Scan" tap.
 */

export function audioForBeep(): AudioContext | null {
  const Ctx =
    globalThis.AudioContext ??
    (globalThis as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  try {
    return Ctx ? new Ctx() : null;
  } catch {
    return null;
  }
}

/** A 120 ms beep at 1.3 kHz, and a 80 ms vibration where the device can. */
export function signalRead(audio: AudioContext | null) {
  navigator.vibrate?.(80);
  if (!audio) return;
  const tone = audio.createOscillator();
  const gain = audio.createGain();
  tone.type = "sine";
  tone.frequency.value = 1320;
  gain.gain.value = 0.15;
  tone.connect(gain).connect(audio.destination);
  tone.start();
  tone.stop(audio.currentTime + 0.12);
}
