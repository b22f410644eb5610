/** Fluent Bit configuration as the engine reads it (outputs, S3 settings; docs/fluent-bit-store-format.md#the-index-file). Part of the domain model (see ../model.ts). */

export interface ConfigSource {
  file: string;
  line: number;
}

export interface FluentBitOutput {
  /** Instance id: 0-based position among ALL outputs (docs/fluent-bit-store-format.md#the-index-file). */
  id: number;
  /** Plugin name (`s3`, `stdout`, …). */
  plugin: string;
  alias: string | null;
  /** `s3.<id>` or the alias. */
  displayName: string;
  match: string | null;
  source: ConfigSource;
  /** Every key as written (lower-cased names), after @SET/${ENV} expansion. */
  properties: Record<string, string>;
  /** Present for S3 outputs, with defaults filled in per the spec. */
  s3?: S3OutputSettings;
}

export interface S3OutputSettings {
  bucket: string;
  region: string;
  endpoint: string | null;
  storeDir: string;
  /** `<store_dir>/<bucket>` exactly as Fluent Bit concatenates it. */
  rootPath: string;
  s3KeyFormat: string;
  keyFormatIsDefault: boolean;
  tagDelimiters: string;
  usePutObject: boolean;
  /** Effective: forced on below 10 MiB total_file_size (docs/fluent-bit-store-format.md#layout). */
  usePutObjectEffective: boolean;
  compression: 'none' | 'gzip' | 'zstd' | 'snappy' | 'arrow' | 'parquet';
  staticFilePath: boolean;
  profile: string | null;
  roleArn: string | null;
  totalFileSize: number;
  uploadChunkSize: number;
  retryLimit: number | null;
  hasIndex: boolean;
}

export interface FluentBitConfig {
  /** Every file read (main file first, then includes). */
  files: string[];
  format: 'classic' | 'yaml';
  outputs: FluentBitOutput[];
  /** `[SERVICE]` / YAML `service:` properties (lower-cased keys, variables expanded): storage.path and its limits. */
  service?: Record<string, string>;
  /** `fatal`: Fluent Bit would refuse to start with this config (e.g. an output plugin it does not have). */
  warnings: { file: string; line: number; message: string; fatal?: boolean }[];
}
