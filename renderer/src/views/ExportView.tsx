/** Export the report (JSON or Markdown) for a support ticket: preview it, copy it to the clipboard, or download it. */
import { useState } from 'react';
import { downloadText, exportReport } from '../actions/report';
import { describeError } from '../actions/run';
import { CopyButton } from '../components/CopyButton';
import { ErrorText } from '../components/ErrorText';
import { formatCount } from '../format';

export function ExportView() {
  const [preview, setPreview] = useState<{ fileName: string; mimeType: string; text: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (format: 'json' | 'markdown', download: boolean) => {
    setBusy(true);
    setError(null);
    try {
      const r = await exportReport(format);
      setPreview(r);
      if (download) downloadText(r.fileName, r.mimeType, r.text);
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
        <button type="button" disabled={busy} onClick={() => void run('markdown', false)}>
          Preview Markdown
        </button>
        <button type="button" disabled={busy} onClick={() => void run('json', false)}>
          Preview JSON
        </button>
        <button type="button" className="primary" disabled={busy} onClick={() => void run('markdown', true)}>
          Download Markdown
        </button>
        <button type="button" disabled={busy} onClick={() => void run('json', true)}>
          Download JSON
        </button>
      </p>
      <ErrorText error={error} />
      {preview && (
        <section className="card">
          <div className="section-head">
            <h3>
              {preview.fileName} <span className="muted small">({formatCount(preview.text.length)} characters)</span>
            </h3>
            <CopyButton text={preview.text} label="Copy to clipboard" />
            <button type="button" className="small" onClick={() => downloadText(preview.fileName, preview.mimeType, preview.text)}>
              Download
            </button>
          </div>
          <pre className="preview" data-testid="export-preview" tabIndex={0} aria-label={`Preview of ${preview.fileName}`}>
            {preview.text.slice(0, 20_000)}
          </pre>
          {preview.text.length > 20_000 && <p className="muted small">The preview shows the first 20,000 characters; copy and download take all of it.</p>}
        </section>
      )}
    </div>
  );
}
