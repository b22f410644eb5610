// @vitest-environment happy-dom
/**
 * Issue 17 case 11: bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069) in a
 * store's names and in the engine's sentences about them are shown escaped in the UI (`\u{202e}`),
 * never as characters that reorder what the reader sees: `‮gnp.exe` would read as `exe.png`.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { App } from '../../renderer/src/App';
import { setClient } from '../../renderer/src/client';
import { useSession } from '../../renderer/src/state/session';
import { useChunks } from '../../renderer/src/state/chunks';
import { fakeClient } from './fakeClient';
import type { ChunkInfo, Draft } from '../../shared/model';
import { syntheticDiagnosis, syntheticReport } from '../e2e/support/synthetic';

vi.mock('uplot', () => ({
  default: class {
    static paths = { stepped: () => undefined };
    setSize() {}
    destroy() {}
  },
}));

const BIDI = /[\u202a-\u202e\u2066-\u2069]/;
const report = syntheticReport(4, 1, 'bucket-a');
// the fixture is still being built: a report is never changed once published
const chunk = report.roots[0].streams[0].chunks[0] as Draft<ChunkInfo>;
chunk.name = '\u202egnp.exe\u2066.flb';
chunk.tag = 'app\u202dweb';
chunk.message = `header of \u202egnp.exe cannot be read`;
const diagnosis = syntheticDiagnosis('bucket-a');
diagnosis.outputs[0].findings[0].summary = `tag \u2067evil\u2069 in ${chunk.name}`;

/** The page's text has no bidi control; on failure, the text around the first one. */
function expectNoBidi(): void {
  const text = document.body.textContent ?? '';
  const at = text.search(BIDI);
  expect(at === -1 ? '' : JSON.stringify(text.slice(Math.max(0, at - 60), at + 20))).toBe('');
}

beforeEach(() => {
  setClient(
    fakeClient({
      'app.info': () => ({ version: '0.1.0', door: 'host', demoAvailable: false }),
      'store.recent': () => ({ recent: [] }),
      'store.open': () => ({ storeId: 'st-1', report }),
      'diagnose.run': () => diagnosis,
    }),
  );
});
afterEach(() => {
  cleanup();
  useSession.setState({ opened: null, view: 'open', changed: null, error: null, config: null });
  useChunks.getState().reset();
});

describe('bidi overrides from a store', () => {
  it('are shown escaped in the overview (findings) and the chunk table', async () => {
    render(<App />);
    fireEvent.change(await screen.findByLabelText('Path'), { target: { value: '/data/fluent-bit/bucket-a' } });
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    await screen.findByRole('heading', { name: 'Overview' });
    await screen.findByText(/tag \\u\{2067\}evil\\u\{2069\} in/);
    expectNoBidi();
    act(() => useSession.getState().setView('chunks'));
    await screen.findByTestId('chunk-count');
    const row = document.querySelector(`[data-testid="chunk-row"][data-index="0"]`) as HTMLElement;
    expect(row.textContent).toContain('\\u{202e}gnp.exe\\u{2066}.flb');
    expect(row.textContent).toContain('app\\u{202d}web');
    expect(row.title).not.toMatch(BIDI);
    expectNoBidi();
  });
});
