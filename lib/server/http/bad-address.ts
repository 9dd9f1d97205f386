import "server-only";

/**
 * The page answered (400) for an address the framework cannot even decode (a broken %-escape):
 * a small page of its own, in the console's colours, with a way back — never a plain-text 500.
 */
export function badAddressPage(message: string, nonce: string): string {
  const text = message.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Bad address · Event operations console</title>
<style nonce="${nonce}">
  body { font-family: system-ui, sans-serif; background: #f8fafc; color: #0f172a; margin: 0; }
  main { max-width: 32rem; margin: 15vh auto; padding: 1.5rem; background: #fff;
         border: 1px solid #e2e8f0; border-radius: 0.5rem; }
  h1 { font-size: 1.25rem; margin: 0 0 0.75rem; }
  a { color: #1d4ed8; }
</style>
</head>
<body>
<main>
<h1>Bad address (400)</h1>
<p>${text}</p>
<p><a href="/">Go to the console's first screen</a></p>
</main>
</body>
</html>
`;
}
