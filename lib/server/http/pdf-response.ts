import "server-only";

/** A PDF download (a report made on the server), never cached. */
export function pdfResponse(body: Uint8Array, fileName: string): Response {
  return new Response(body as Uint8Array<ArrayBuffer>, {
    headers: {
      "content-type": "application/pdf",
      "content-disposition": `attachment; filename="${fileName.replace(/[^A-Za-z0-9._-]/g, "_")}"`,
      "cache-control": "no-store",
    },
  });
}
