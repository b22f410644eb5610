/**
 * Fluent Bit configuration reader: classic `.conf` (with `@INCLUDE` globs, `@SET`, `${VAR}`) and
 * YAML (`pipeline.outputs`, `includes`, `env`) → outputs with instance ids and S3 settings.
 *
 * Offers: loadFluentBitConfig(path, { env }), parseFluentBitConfig(text, { fileName, env, io }),
 * findOutput(config, nameOrId), ConfigError, sizeToBytes, parseBool, DEFAULT_STORE_DIR,
 * BUILTIN_OUTPUT_PLUGINS, outputPluginName.
 */
export { loadFluentBitConfig, parseFluentBitConfig, isYamlConfigName } from './load';
export { findOutput } from '../../../shared/outputs';
export type { LoadConfigOptions, ParseConfigOptions } from './load';
export { ConfigError } from './errors';
export {
  sizeToBytes,
  parseBool,
  buildS3Settings,
  DEFAULT_STORE_DIR,
  DEFAULT_TOTAL_FILE_SIZE,
  DEFAULT_UPLOAD_CHUNK_SIZE,
  PUT_OBJECT_FORCED_BELOW,
} from './s3-settings';
export type { ConfigIo } from './sections';
export { BUILTIN_OUTPUT_PLUGINS, outputPluginName } from './plugins';
