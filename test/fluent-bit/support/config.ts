/**
 * Classic Fluent Bit configs for the suite and the harness: dummy inputs → one or more out_s3
 * outputs. Defaults are the fastest settings Fluent Bit allows (flush 1 s, upload_timeout 2 s,
 * total_file_size 1M). v1.x/v2.x get `tls Off` with an http:// endpoint: without it 1.9.10 dies with
 * SIGSEGV at its first upload (../shared/fluent-bit/README.md). They also get `net.keepalive Off`:
 * with keepalive, 1.9.10 reads the answer on a recycled connection with a 0 s timeout ("sync io_read
 * timeout after 0 seconds"), counts a PUT that RGW stored as failed, rolls $INDEX back and sends the
 * records again under another key (docs/fluent-bit-versions.md). That is Fluent Bit's duplicate, not
 * the tool's, and would hide the tool's.
 */
export interface DummyInput {
  tag: string;
  /** Records per second. */
  rate: number;
  /** The record; `run` is added so records of different runs never look alike. */
  record: Record<string, unknown>;
  /** Records per tick (dummy `copies`, not in 1.9.10), for volume. */
  copies?: number;
  /** Stop after this many records (dummy `samples`). */
  samples?: number;
}

export interface S3Output {
  bucket: string;
  endpoint: string;
  storeDir: string;
  keyFormat: string;
  region?: string;
  match?: string;
  totalFileSize?: string;
  uploadTimeout?: string;
  usePutObject?: boolean;
  uploadChunkSize?: string;
  /** Omitted when undefined (the version's default applies). */
  retryLimit?: number | 'no_limits';
  compression?: 'gzip';
  preserveDataOrdering?: boolean;
  /** Keep 1.x/2.x's connection reuse (default: `net.keepalive Off` there, see above). */
  keepalive?: boolean;
  /** Any further `key value` lines, written as given. */
  extra?: Record<string, string>;
}

export interface ConfigSpec {
  /** Major version of the binary that reads it (decides `tls Off`). */
  major: number;
  inputs: DummyInput[];
  outputs: S3Output[];
  /** Marks every record (`"run":"<id>"`). */
  runId: string;
  flush?: number;
  grace?: number;
  logLevel?: 'info' | 'debug' | 'warn';
}

/** A record every version's dummy accepts: one flat JSON object on one line. */
function dummyRecord(input: DummyInput, runId: string): string {
  const json = JSON.stringify({ run: runId, tag: input.tag, ...input.record });
  if (/[\r\n]/.test(json)) throw new Error('dummy record must fit on one line');
  return json;
}

const line = (k: string, v: string | number) => `    ${k.padEnd(22)} ${v}`;

export function needsTlsOff(major: number, endpoint: string): boolean {
  return major < 3 && endpoint.startsWith('http://');
}

export function renderConfig(spec: ConfigSpec): string {
  const out: string[] = ['[SERVICE]', line('flush', spec.flush ?? 1), line('grace', spec.grace ?? 5), line('log_level', spec.logLevel ?? 'info'), ''];
  for (const i of spec.inputs) {
    out.push('[INPUT]', line('name', 'dummy'), line('tag', i.tag), line('rate', i.rate));
    if (i.copies && i.copies > 1) out.push(line('copies', i.copies));
    if (i.samples) out.push(line('samples', i.samples));
    out.push(line('dummy', dummyRecord(i, spec.runId)), '');
  }
  for (const o of spec.outputs) {
    out.push(
      '[OUTPUT]',
      line('name', 's3'),
      line('match', o.match ?? '*'),
      line('bucket', o.bucket),
      line('region', o.region ?? 'us-east-1'),
      line('endpoint', o.endpoint),
      line('store_dir', o.storeDir),
      line('s3_key_format', o.keyFormat),
      line('total_file_size', o.totalFileSize ?? '1M'),
      line('upload_timeout', o.uploadTimeout ?? '2s'),
      line('use_put_object', o.usePutObject === false ? 'Off' : 'On'),
    );
    if (o.uploadChunkSize) out.push(line('upload_chunk_size', o.uploadChunkSize));
    if (o.retryLimit !== undefined) out.push(line('retry_limit', o.retryLimit));
    if (o.compression) out.push(line('compression', o.compression));
    if (o.preserveDataOrdering !== undefined) out.push(line('preserve_data_ordering', o.preserveDataOrdering ? 'On' : 'Off'));
    if (needsTlsOff(spec.major, o.endpoint)) out.push(line('tls', 'Off'));
    if (spec.major < 3 && !o.keepalive) out.push(line('net.keepalive', 'Off'));
    for (const [k, v] of Object.entries(o.extra ?? {})) out.push(line(k, v));
    out.push('');
  }
  return out.join('\n');
}
