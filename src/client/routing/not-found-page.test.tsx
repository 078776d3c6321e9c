// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderApp } from '../test/render-app';

describe('not-found page', () => {
  it('shows the spec texts inside the layout', async () => {
    renderApp('/no/such/page', { role: 'lawyer' });
    expect(await screen.findByRole('heading', { level: 1, name: 'The page you were looking for doesn’t exist.' })).toBeTruthy();
    expect(screen.getByText('You may have mistyped the address or the page may have moved.')).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeTruthy();
    expect(screen.getByRole('main')).toBeTruthy();
    expect(screen.getByRole('contentinfo')).toBeTruthy();
  });
});
