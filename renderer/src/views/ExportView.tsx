/** Export the report (JSON or Markdown) for a support ticket. */
import { useState } from 'react';
import { downloadText, exportReport } from '../actions/report';
import { describeError } from '../actions/run';
import { ErrorText } from '../components/ErrorText';

export function ExportView() {
  const [preview, setPreview] = useState<{ fileName: string; mimeType: string; text: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (format: 'json' | 'markdown') => {
    setBusy(true);
    setError(null);
    try {
      const r = await exportReport(format);
      setPreview(r);
      downloadText(r.fileName, r.mimeType, r.text);
    } catch (e) {
      setError(describeError(e, 'Exporting the report'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="view">
      <h2>Export report</h2>
      <p className="muted">Everything Store Doctor found (store, findings, evidence summary), for a support ticket. No credentials are included.</p>
      <p className="row-form">
        <button type="button" className="primary" disabled={busy} onClick={() => void run('markdown')}>
          Download Markdown
        </button>
        <button type="button" disabled={busy} onClick={() => void run('json')}>
          Download JSON
        </button>
      </p>
      <ErrorText error={error} />
      {preview && (
        <section className="card">
          <h3>
            {preview.fileName} <span className="muted small">({preview.text.length.toLocaleString('en-US')} characters)</span>
          </h3>
          <pre className="preview" data-testid="export-preview">
            {preview.text.slice(0, 20_000)}
          </pre>
        </section>
      )}
    </div>
  );
}
