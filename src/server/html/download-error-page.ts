import { errorMessages } from '../../shared/rules/error-codes';
import { escapeHtml } from './escape-html';

/**
 * What a browser window that opened a download link sees when there is no file to give it (the
 * PDF took too long or failed, the link expired): the portal's words for it and a way back,
 * instead of the API's JSON. The page that opened the window never learns how the link answered,
 * so this window is where the user reads it.
 */
export function downloadErrorPage(code: string, brand: { productName: string; portalUrl: string }): string {
  const message = (errorMessages as Record<string, string>)[code] ?? errorMessages.unavailable;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(brand.productName)}</title>
<style>body{font:1rem/1.5 system-ui,sans-serif;margin:0;padding:2rem 1rem;color:#1b1b1b}main{max-width:40rem;margin:0 auto}h1{font-size:1.5rem}a{color:#0b3d91}</style>
</head>
<body>
<main>
<h1>${escapeHtml(message)}</h1>
<p><a href="${escapeHtml(brand.portalUrl)}/">Back to ${escapeHtml(brand.productName)}</a></p>
</main>
</body>
</html>
`;
}
