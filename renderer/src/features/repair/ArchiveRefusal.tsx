/**
 * Step 1 of every write flow on an archive: refused before anything is planned (an archive is
 * read-only evidence; the engine refuses it in every plan too), with the way forward — a writable
 * copy of the demo, or extracting the archive to a folder and opening that.
 */
import { openDemoCopy } from '../../actions/store';
import { shellQuote } from '../../../../shared/suggest-cli';
import { useSession } from '../../state/session';
import { CopyButton } from '../../components/CopyButton';

export function ArchiveRefusal() {
  const opened = useSession((s) => s.opened);
  if (!opened) return null;
  const archive = opened.report.source.path;
  const dir = `${archive.replace(/\.(tar\.gz|tgz|tar)$/i, '')}-extracted`;
  const command = `mkdir -p ${shellQuote(dir)} && tar -xf ${shellQuote(archive)} -C ${shellQuote(dir)}`;
  return (
    <section className="card refusal" aria-label="Refused" data-testid="archive-refusal">
      <p className="error" role="alert">
        Refused: <code>{archive}</code> is an archive. Archives are read-only evidence — nothing is planned or written into one.
      </p>
      {opened.isDemo ? (
        <div className="row-form">
          <p>To try Repair, Protect and Undo on the demo, work on a writable copy: Store Doctor extracts it into a new temp folder and opens that.</p>
          <button
            type="button"
            className="primary"
            onClick={async () => {
              const view = useSession.getState().view;
              if (await openDemoCopy()) useSession.getState().setView(view);
            }}
          >
            Open a writable copy of the demo
          </button>
        </div>
      ) : (
        <>
          <p>Extract it to a folder, then open that folder (the live store_dir itself, or a copy of it):</p>
          <div className="cli-body">
            <pre>{command}</pre>
            <CopyButton text={command} />
          </div>
          <p>
            <button type="button" onClick={() => useSession.getState().setView('open')}>
              Open the extracted folder…
            </button>
          </p>
        </>
      )}
    </section>
  );
}
