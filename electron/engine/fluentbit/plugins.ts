/**
 * Output plugin names as Fluent Bit v5.0.9 resolves them (`flb_output_new` in src/flb_output.c):
 * `check_protocol` compares the name up to `://`, case-insensitively, with each registered
 * plugin's `.name` (plugins/CMakeLists.txt REGISTER_OUT_PLUGIN, build options included); a plugin
 * flagged FLB_OUTPUT_PRIVATE cannot be named in a config (`public_only`). With no match
 * `flb_output_new` returns NULL before an instance id is taken, and `configure_plugins_type`
 * (src/flb_config.c) fails: "tried to instance a plugin name that doesn't exist", no start.
 */

/** Public built-in output plugins of v5.0.9 (the `.name` of each `struct flb_output_plugin`). */
export const BUILTIN_OUTPUT_PLUGINS: ReadonlySet<string> = new Set([
  'azure',
  'azure_blob',
  'azure_kusto',
  'azure_logs_ingestion',
  'bigquery',
  'chronicle',
  'cloudwatch_logs',
  'counter',
  'datadog',
  'es',
  'exit',
  'file',
  'flowcounter',
  'forward',
  'gelf',
  'http',
  'influxdb',
  'kafka',
  'kafka-rest',
  'kinesis_firehose',
  'kinesis_streams',
  'lib',
  'logdna',
  'loki',
  'nats',
  'nrlogs',
  'null',
  'opensearch',
  'opentelemetry',
  'oracle_log_analytics',
  'pgsql',
  'plot',
  'prometheus_exporter',
  'prometheus_remote_write',
  'retry',
  's3',
  'skywalking',
  'slack',
  'splunk',
  'stackdriver',
  'stdout',
  'syslog',
  'tcp',
  'td',
  'udp',
  'vivo_exporter',
  'websocket',
]);

/** Built in but FLB_OUTPUT_PRIVATE: only Fluent Bit itself creates them. */
export const PRIVATE_OUTPUT_PLUGINS: ReadonlySet<string> = new Set(['calyptia']);

/** The plugin part of an output `name` as check_protocol reads it (`es://host` → `es`), lower-cased. */
export function outputPluginName(name: string): string {
  const p = name.indexOf('://');
  return (p > 0 ? name.slice(0, p) : name).toLowerCase();
}

/** Why Fluent Bit would refuse this plugin name (null: a known public output). */
export function unknownOutputPlugin(plugin: string): string | null {
  if (BUILTIN_OUTPUT_PLUGINS.has(plugin)) return null;
  const why = PRIVATE_OUTPUT_PLUGINS.has(plugin)
    ? `${JSON.stringify(plugin)} is an internal output (FLB_OUTPUT_PRIVATE) a config cannot name`
    : `Fluent Bit v5.0.9 has no output plugin ${JSON.stringify(plugin)}`;
  return (
    `[OUTPUT] ${why}: it refuses to start ("tried to instance a plugin name that doesn't exist"), unless an external plugin ` +
    `of that name is loaded (-e, plugins_file, [PLUGINS]). The output ids here count it as loaded; if it is not, no output starts.`
  );
}
