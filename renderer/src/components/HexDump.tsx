/**
 * The first bytes of a chunk as an annotated hex dump: each byte coloured by the header field the
 * engine says it belongs to (magic, CRC, lengths, metadata), with a legend that gives each
 * field's offset, value and what it means for this chunk.
 */
import type { ChunkLayoutField } from '../../../shared/model';
import { Fragment } from 'react';

interface Byte {
  value: number;
  field: number;
}

function bytesOf(layout: ChunkLayoutField[], headerHex: string): Byte[] {
  const out: Byte[] = [];
  if (layout.length === 0) {
    const clean = headerHex.replace(/[^0-9a-f]/gi, '');
    for (let i = 0; i + 1 < clean.length; i += 2) out.push({ value: parseInt(clean.slice(i, i + 2), 16), field: -1 });
    return out;
  }
  layout.forEach((f, fi) => {
    for (let i = 0; i + 1 < f.hex.length; i += 2) out[f.offset + i / 2] = { value: parseInt(f.hex.slice(i, i + 2), 16), field: fi };
  });
  return Array.from(out, (b) => b ?? { value: 0, field: -1 });
}

const hex2 = (n: number) => n.toString(16).padStart(2, '0');
const ascii = (n: number) => (n >= 0x20 && n < 0x7f ? String.fromCharCode(n) : '.');

export function HexDump({ layout, headerHex }: { layout: ChunkLayoutField[]; headerHex: string }) {
  return (
    <pre className="hex" data-testid="header-hex" aria-label="Hex dump of the header and metadata">
      <HexRows layout={layout} headerHex={headerHex} />
    </pre>
  );
}

function HexRows({ layout, headerHex }: { layout: ChunkLayoutField[]; headerHex: string }) {
  const bytes = bytesOf(layout, headerHex);
  const rows: Byte[][] = [];
  for (let i = 0; i < bytes.length; i += 16) rows.push(bytes.slice(i, i + 16));
  const name = (b: Byte) => (b.field >= 0 ? layout[b.field].name : undefined);
  return (
    <>
      {rows.map((row, r) => (
        <Fragment key={r}>
          {r > 0 ? '\n' : ''}
          <span className="hx-off">{(r * 16).toString(16).padStart(8, '0')}</span>
          {'  '}
          {row.map((b, i) => (
            <Fragment key={i}>
              {i > 0 ? ' ' : ''}
              <span className={b.field >= 0 ? `hx hx-${b.field % 8}` : undefined} title={name(b)}>
                {hex2(b.value)}
              </span>
            </Fragment>
          ))}
          {' '.repeat((16 - row.length) * 3)}
          {'  '}
          {row.map((b, i) => (
            <span key={i} className={b.field >= 0 ? `hx hx-${b.field % 8}` : undefined}>
              {ascii(b.value)}
            </span>
          ))}
        </Fragment>
      ))}
    </>
  );
}

/** The legend of the dump: each field with its bytes, value and meaning (same colours). */
export function LayoutTable({ layout }: { layout: ChunkLayoutField[] }) {
  if (layout.length === 0) return null;
  return (
    <table className="compact layout" aria-label="Header fields, annotated" data-testid="layout">
      <thead>
        <tr>
          <th scope="col">Field</th>
          <th scope="col" className="num">
            Bytes
          </th>
          <th scope="col">Value</th>
          <th scope="col">Meaning</th>
        </tr>
      </thead>
      <tbody>
        {layout.map((f, i) => (
          <tr key={f.name} className={f.ok === false ? 'bad' : undefined}>
            <th scope="row">
              <span className={`hx-key hx-${i % 8}`} aria-hidden="true" /> {f.name}
            </th>
            <td className="num">{f.length > 0 ? `${f.offset}–${f.offset + f.length - 1}` : `${f.offset}…`}</td>
            <td>
              <code className="wrap">{f.value}</code>
            </td>
            <td>
              {f.ok === true ? '✓ ' : f.ok === false ? '✗ ' : ''}
              {f.note}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
