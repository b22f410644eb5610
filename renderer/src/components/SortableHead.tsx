/**
 * The header row of a sortable table (the Fleet views): each column a button that sorts by it,
 * `aria-sort` on the current one; a second click reverses. Numbers sort descending first.
 */
export interface SortColumn<K extends string> {
  key: K;
  label: string;
  num?: boolean;
}

export interface SortState<K extends string> {
  key: K | null;
  desc: boolean;
}

export function SortableHead<K extends string>(props: {
  columns: SortColumn<K>[];
  sort: SortState<K>;
  onSort: (next: (s: SortState<K>) => SortState<K>) => void;
}) {
  const { columns, sort, onSort } = props;
  return (
    <thead>
      <tr>
        {columns.map((c) => (
          <th key={c.key} className={c.num ? 'num' : undefined} aria-sort={sort.key === c.key ? (sort.desc ? 'descending' : 'ascending') : 'none'}>
            <button type="button" className="link" onClick={() => onSort((s) => ({ key: c.key, desc: s.key === c.key ? !s.desc : !!c.num }))}>
              {c.label}
            </button>
          </th>
        ))}
      </tr>
    </thead>
  );
}
