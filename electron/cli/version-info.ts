/**
 * What `store-doctor version` prints: this build's version, the Node runtime it runs on, the
 * platform and the git commit it was built from. The commit is baked in by the build
 * (scripts/build-cli.mjs); run from the TypeScript sources it is null. Nothing but `process` here,
 * so the compiled entry answers without loading the program.
 */
declare const __STORE_DOCTOR_COMMIT__: string | undefined;

export interface VersionInfo {
  version: string;
  /** The Node runtime this process runs on (the single executable embeds its own). */
  node: string;
  /** `<os>-<arch>`, as Node names them. */
  platform: string;
  /** The git commit the build was made from; null when unknown (run from the sources). */
  commit: string | null;
}

export function versionInfo(version: string): VersionInfo {
  const commit = typeof __STORE_DOCTOR_COMMIT__ === 'undefined' ? null : __STORE_DOCTOR_COMMIT__ || null;
  return { version, node: process.versions.node, platform: `${process.platform}-${process.arch}`, commit };
}

export function versionText(info: VersionInfo): string {
  return `store-doctor ${info.version}\nnode ${info.node}\nplatform ${info.platform}\ncommit ${info.commit ?? 'unknown'}\n`;
}

/** Prints the version as text or (`json`) as one JSON object. */
export function printVersion(version: string, json: boolean): void {
  const info = versionInfo(version);
  process.stdout.write(json ? `${JSON.stringify(info, null, 2)}\n` : versionText(info));
}
