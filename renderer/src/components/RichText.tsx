/** Engine sentences with `backtick` commands rendered as code. */
import { codeSpans } from '../format';

export function RichText({ text }: { text: string }) {
  return <>{codeSpans(text).map((p, i) => (p.code ? <code key={i}>{p.text}</code> : <span key={i}>{p.text}</span>))}</>;
}
