/** Engine sentences with `backtick` commands rendered as code. */
import { codeSpans, shown } from '../format';

export function RichText({ text }: { text: string }) {
  return <>{codeSpans(text).map((p, i) => (p.code ? <code key={i}>{shown(p.text)}</code> : <span key={i}>{shown(p.text)}</span>))}</>;
}
