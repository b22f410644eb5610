/**
 * Schemas of every record Store Doctor keeps in a store's `.store-doctor/`: the undo journal, the
 * replay journal and the write lock. These files are read back from a store, which is hostile
 * input, so each line must match its schema exactly (strict objects: an unknown field is refused
 * as much as a wrong type); what a valid record then names is checked further where it is used
 * (undo-check.ts: paths inside the root, backups, modes, owners).
 */
import { z } from 'zod';
import { repairActionSchema } from '../../../../shared/contract';

const MAX_PATH = 4096;
const MAX_TEXT = 8192;

/** An action id as `newId()` makes it (also a folder name under backups/): no separators, no dots first. */
export const actionIdSchema = z.string().regex(/^[0-9A-Za-z][0-9A-Za-z_-]{0,63}$/, 'not an action id');
const text = z.string().max(MAX_TEXT);
const at = z.string().max(64);
/** Absolute, normalized paths are checked where used; here: a bounded string without NUL. */
const pathText = z
  .string()
  .min(1)
  .max(MAX_PATH)
  .refine((p) => !p.includes('\0'), 'contains a NUL byte');
const uint32 = z
  .number()
  .int()
  .min(0)
  .max(2 ** 32 - 1);
const size = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'not a sha256');

export const fileStateSchema = z.strictObject({
  exists: z.boolean(),
  /** Backup file, relative to the tool dir: `backups/<action id>/<name>`. */
  backup: pathText.optional(),
  size: size.optional(),
  sha256: sha256.optional(),
  mode: z.number().int().min(0).max(0o7777).optional(),
  uid: uint32.optional(),
  gid: uint32.optional(),
});

export const afterStateSchema = z.strictObject({ exists: z.boolean(), sha256: sha256.optional(), size: size.optional() });

export const changeSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('file'), path: pathText, before: fileStateSchema, after: afterStateSchema.optional() }),
  z.strictObject({ kind: z.literal('mkdir'), path: pathText }),
  z.strictObject({ kind: z.literal('move'), from: pathText, to: pathText }),
]);

/** The `$INDEX` evidence an action rested on (shared/model UsedIndexEvidence): what its undo is judged against. */
export const usedEvidenceSchema = z.strictObject({
  outputId: uint32,
  coverage: z.enum(['complete', 'window', 'incomplete', 'none', 'unusable', 'stale']),
  text,
  listedAt: at.nullable(),
  highestIndex: size.nullable(),
  keys: z.array(z.strictObject({ key: z.string().min(1).max(1024), index: size })).max(200),
});

export const actionEntrySchema = z.strictObject({
  type: z.literal('action'),
  id: actionIdSchema,
  at,
  action: repairActionSchema,
  storePath: pathText,
  rootPath: pathText,
  summary: text,
  changes: z.array(changeSchema).max(100_000),
  undoable: z.boolean(),
  /** Why an action cannot be undone (replay: the objects are in the bucket). */
  undoNote: text.optional(),
  /** Index actions: the bucket evidence the value rested on, per output. */
  evidence: z.array(usedEvidenceSchema).max(1024).optional(),
});

const afterMap = z.record(pathText, afterStateSchema);

export const journalEntrySchema = z.discriminatedUnion('type', [
  actionEntrySchema,
  z.strictObject({ type: z.literal('applied'), id: actionIdSchema, at, verified: z.boolean(), after: afterMap }),
  z.strictObject({ type: z.literal('undone'), id: actionIdSchema, at }),
  z.strictObject({ type: z.literal('failed'), id: actionIdSchema, at, message: text }),
  /** Nothing of the action was changed (e.g. its plan was found stale after the backup): never undone. */
  z.strictObject({ type: z.literal('abandoned'), id: actionIdSchema, at, message: text }),
  z.strictObject({ type: z.literal('undo-failed'), id: actionIdSchema, at, message: text }),
  /**
   * An undo of `id` starts: the state of each file right before it (what the undo replaces), so an
   * interrupted undo is re-run without taking its own partial changes for someone else's.
   */
  z.strictObject({ type: z.literal('undo-started'), id: actionIdSchema, at, states: afterMap }),
]);

export type FileState = z.infer<typeof fileStateSchema>;
export type AfterState = z.infer<typeof afterStateSchema>;
export type UndoChange = z.infer<typeof changeSchema>;
export type ActionEntry = z.infer<typeof actionEntrySchema>;
export type JournalEntry = z.infer<typeof journalEntrySchema>;

/** Lines of the replay journal `.store-doctor/replay.jsonl`. */
const chunk = pathText;
const key = z.string().min(1).max(1024);
const hash = z.string().max(128);
export const replayLineSchema = z.discriminatedUnion('t', [
  z.strictObject({ t: z.literal('intent'), chunk, src: hash, key, index: size.nullable(), size, md5: hash, at }),
  z.strictObject({ t: z.literal('uploaded'), chunk, src: hash, key, etag: z.string().max(256).nullable(), at }),
  z.strictObject({ t: z.literal('moved'), chunk, src: hash, to: pathText, at }),
  z.strictObject({ t: z.literal('conflict'), chunk, src: hash, key, at }),
  /** A PUT of `key` is about to be sent (not fsynced: it tells a resume after a kill how recent the last PUT was). */
  z.strictObject({ t: z.literal('started'), chunk, src: hash, key, at }),
  /** The upload of `key` failed (the message names why); the chunk stays in its stream, a later run resumes it. */
  z.strictObject({ t: z.literal('failed'), chunk, src: hash, key, message: z.string().max(2000), at }),
  /** Cancelled before its upload started; the intent's key is kept for the next run. */
  z.strictObject({ t: z.literal('cancelled'), chunk, src: hash, key, at }),
  z.strictObject({ t: z.literal('index'), value: size, at }),
]);
export type ReplayLine = z.infer<typeof replayLineSchema>;

/** The write lock `.store-doctor/write.lock`: who holds it. A bare pid is the format of earlier versions. */
export const lockHolderSchema = z.strictObject({
  pid: z
    .number()
    .int()
    .min(1)
    .max(2 ** 31),
  start: z.string().max(32).nullable(),
  token: z.string().min(1).max(64),
  at: at.optional(),
  action: z
    .string()
    .regex(/^[a-z][a-z -]{0,31}$/)
    .optional(),
});
export type LockHolder = z.infer<typeof lockHolderSchema>;

/** One line of a schema issue: where in the record, and what is wrong. */
export function issueText(err: z.ZodError): string {
  const text = err.issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? i.path.join('.') + ': ' : ''}${i.message}`)
    .join('; ');
  return text.length > 300 ? `${text.slice(0, 300)}…` : text; // key names come from the store
}
