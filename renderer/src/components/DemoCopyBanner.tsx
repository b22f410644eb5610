/** Says, on every view, that the open store is a writable copy of the demo the engine made, and where. */
import { useSession } from '../state/session';

export function DemoCopyBanner() {
  const copy = useSession((s) => s.demoCopy);
  if (!copy) return null;
  return (
    <div className="banner info" role="status" data-testid="demo-copy">
      <span>
        Working on a writable copy of the demo in <code>{copy.path}</code> (a temp folder Store Doctor made from <code>{copy.from}</code>; it is removed when
        you close the store). Repairs and undo change this copy only.
      </span>
    </div>
  );
}
