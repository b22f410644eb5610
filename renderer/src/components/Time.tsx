/** One time format everywhere: ISO-8601 UTC, the local time on hover. */
import { formatTime, localTime } from '../format';

export function Time({ iso }: { iso: string | null | undefined }) {
  if (!iso) return <>—</>;
  const local = localTime(iso);
  return (
    <time dateTime={iso} title={local ? `${local} (local time)` : undefined}>
      {formatTime(iso)}
    </time>
  );
}
