/** Evidence from the bucket: objects, versions, multipart uploads (live or offline). Part of the domain model (see ../model.ts). */

export interface S3ObjectEntry {
  key: string;
  size: number;
  etag: string | null;
  lastModified: string | null;
}

export interface S3VersionEntry extends S3ObjectEntry {
  versionId: string;
  isLatest: boolean;
  isDeleteMarker: boolean;
}

export interface S3UploadEntry {
  key: string;
  uploadId: string;
  initiated: string | null;
  parts?: { partNumber: number; etag: string; size: number }[] | null;
}

export interface S3Evidence {
  source: 'live' | 'offline';
  bucket: string | null;
  /** Prefixes listed (live) or files read (offline). */
  scope: string[];
  objects: S3ObjectEntry[];
  /** Null when not known (no versions listed / permission denied). */
  versions: S3VersionEntry[] | null;
  multipartUploads: S3UploadEntry[] | null;
  /** Degradations, e.g. "ListMultipartUploads denied: multipart checks skipped". */
  notes: string[];
  requests: number;
  /** False when the listing was cut (cancel, error) — conclusions may be incomplete. */
  complete: boolean;
  /**
   * Live planner listings: `full` = every key the key format can reach; `focused` = only what a
   * restart at a given time needs (keys from a time on + the newest partition per tag; see notes).
   * Absent for offline evidence (whatever the files hold).
   */
  coverage?: 'full' | 'focused';
  /** Focused live listings: keys dated `since` or later were listed, for an assumed restart at `at`. */
  focus?: { since: string; at: string };
  /** Offline listings: the `Prefix` each listing document was made with (a narrower prefix misses keys). */
  listedPrefixes?: string[];
  /** When the listing was taken (live: when it finished; offline: the file's modification time). */
  listedAt?: string;
  /** The door it came through (cli, host, electron), set by the session that took it. */
  door?: 'cli' | 'host' | 'electron';
}

export interface S3ConnectionOptions {
  profile?: string;
  region?: string;
  endpoint?: string;
  pathStyle?: boolean;
}
