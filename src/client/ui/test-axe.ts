import axe from 'axe-core';

/**
 * Accessibility violations in a rendered component (tests only). Colour contrast cannot be
 * measured in jsdom (no layout); the tokens are checked by hand (styles/tokens.css) and by the
 * browser audit (tests/e2e/a11y.spec.ts).
 */
export async function axeViolations(root: Element = document.body): Promise<string[]> {
  const result = await axe.run(root, { rules: { 'color-contrast': { enabled: false }, region: { enabled: false } } });
  return result.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
  );
}
