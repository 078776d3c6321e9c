import { describe, expect, it } from 'vitest';
import { isAcceptedFileName } from './accepted-file';

describe('accepted file names', () => {
  it('accepts plain names ending .pdf in any case', () => {
    for (const name of ['report.pdf', 'Report.PDF', 'a.pdf', 'form e (2024).pdf', 'a..pdf', 'Zoë’s statement.pdf'])
      expect(isAcceptedFileName(name)).toBe(true);
  });

  it('refuses other extensions and names with nothing before the extension', () => {
    for (const name of ['report.pdf.exe', 'report', 'report.docx', '.pdf', '..pdf', 'pdf', 'reportpdf'])
      expect(isAcceptedFileName(name)).toBe(false);
  });

  it('refuses paths, control characters, direction overrides, surrounding spaces and long names', () => {
    for (const name of [
      'a/b.pdf',
      'a\\b.pdf',
      'a\u0000.pdf',
      'a\nb.pdf',
      'invoice\u202Efdp.exe.pdf',
      ' a.pdf',
      'a.pdf ',
      `${'a'.repeat(252)}.pdf`,
    ])
      expect(isAcceptedFileName(name)).toBe(false);
    expect(isAcceptedFileName(`${'a'.repeat(251)}.pdf`)).toBe(true);
  });
});
