/** Next.js calls this once per server process, before serving. */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startDashboard } = await import("./lib/server/startup");
  await startDashboard();
}
