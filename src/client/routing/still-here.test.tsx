// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { act, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useParams } from 'react-router-dom';
import { useStillHere } from './still-here';

let mark: (() => () => boolean) | null = null;

function Step() {
  const { step } = useParams();
  mark = useStillHere();
  return <p>{step}</p>;
}

function setUp() {
  const router = createMemoryRouter(
    [
      { path: '/steps/:step', element: <Step /> },
      { path: '/elsewhere', element: <p>elsewhere</p> },
    ],
    { initialEntries: ['/steps/one'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('useStillHere', () => {
  it('is true while the user stays where the action started', () => {
    setUp();
    const isHere = mark!();
    expect(isHere()).toBe(true);
  });

  it('is false once the same page shows another entry (another step), though it stayed mounted', async () => {
    const router = setUp();
    const isHere = mark!();
    await act(() => router.navigate('/steps/two'));
    expect(isHere()).toBe(false);
    // An action started there is there.
    expect(mark!()()).toBe(true);
  });

  it('is false once the page is gone, even if the user comes back to the same address', async () => {
    const router = setUp();
    const isHere = mark!();
    await act(() => router.navigate('/elsewhere'));
    expect(isHere()).toBe(false);
    await act(() => router.navigate('/steps/one'));
    expect(isHere()).toBe(false);
  });
});
