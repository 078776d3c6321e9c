/**
 * A Content-Disposition header naming the file safely: a plain-ASCII fallback (quotes, backslashes,
 * control and non-ASCII characters replaced) and the exact name in RFC 5987 form for browsers that
 * read it. No header injection: CR, LF and every other control character are gone from both.
 */
export function contentDisposition(fileName: string, disposition: 'attachment' | 'inline' = 'attachment'): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
  const cleaned = fileName.replace(/[\u0000-\u001f\u007f]/g, '').trim() || 'document.pdf';
  const fallback = cleaned
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\]/g, '_')
    .replace(/[/]/g, '_');
  const encoded = encodeURIComponent(cleaned).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
