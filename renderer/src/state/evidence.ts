/**
 * S3 evidence (live or offline), the diagnosis made from it, the connection form, the resolved
 * S3 target of the chosen output with its last connection test, and the connections saved per
 * bucket. View state and engine results only.
 */
import { create } from 'zustand';
import type { ConnectionTest, Diagnosis, S3Evidence, S3Target, SavedConnection } from '../../../shared/model';

export interface ConnectionForm {
  profile: string;
  region: string;
  endpoint: string;
  pathStyle: boolean;
}

/** An offline document imported in this session, by role (for the command-line equivalent). */
export interface ImportedDoc {
  name: string;
  kind: 'listing' | 'versions' | 'multipart';
}

export interface EvidenceState {
  outputId: number | null;
  connection: ConnectionForm;
  evidence: S3Evidence | null;
  diagnosis: Diagnosis | null;
  busy: 'live' | 'offline' | 'diagnose' | null;
  error: string | null;
  /** What the last "Refresh evidence" found (an offline file that did not change). */
  refreshNote: string | null;
  imports: ImportedDoc[];
  /** The resolved target of `outputId` for the form (connection.describe). */
  target: S3Target | null;
  test: ConnectionTest | null;
  testing: boolean;
  saved: SavedConnection[];
  setOutputId(id: number | null): void;
  setConnection(patch: Partial<ConnectionForm>): void;
  setEvidence(evidence: S3Evidence | null): void;
  setDiagnosis(diagnosis: Diagnosis | null): void;
  setBusy(busy: EvidenceState['busy']): void;
  setError(error: string | null): void;
  setRefreshNote(note: string | null): void;
  addImports(docs: ImportedDoc[], replace: boolean): void;
  setTarget(target: S3Target | null): void;
  setTest(test: ConnectionTest | null): void;
  setTesting(testing: boolean): void;
  setSaved(saved: SavedConnection[]): void;
  reset(): void;
}

const initial = {
  outputId: null,
  connection: { profile: '', region: '', endpoint: '', pathStyle: false },
  evidence: null,
  diagnosis: null,
  busy: null,
  error: null,
  refreshNote: null,
  imports: [],
  target: null,
  test: null,
  testing: false,
};

export const useEvidence = create<EvidenceState>()((set, get) => ({
  ...initial,
  saved: [],
  setOutputId: (outputId) => set(outputId === get().outputId ? {} : { outputId, target: null, test: null }),
  // a changed form invalidates the last test: it was of another connection
  setConnection: (patch) => set({ connection: { ...get().connection, ...patch }, test: null }),
  setEvidence: (evidence) => set({ evidence }),
  setDiagnosis: (diagnosis) => set({ diagnosis }),
  setBusy: (busy) => set({ busy }),
  setError: (error) => set({ error, busy: null }),
  setRefreshNote: (refreshNote) => set({ refreshNote }),
  addImports: (docs, replace) => {
    const names = new Set(docs.map((d) => d.name));
    set({ imports: [...(replace ? [] : get().imports.filter((d) => !names.has(d.name))), ...docs] });
  },
  setTarget: (target) => set({ target }),
  setTest: (test) => set({ test, testing: false }),
  setTesting: (testing) => set({ testing }),
  setSaved: (saved) => set({ saved }),
  // saved connections belong to the engine's state, not to the store: they stay
  reset: () => set(initial),
}));

/** The connection form as the contract wants it: blank fields left out. */
export function connectionInput(form: ConnectionForm): { profile?: string; region?: string; endpoint?: string; pathStyle?: boolean } {
  const out: { profile?: string; region?: string; endpoint?: string; pathStyle?: boolean } = {};
  if (form.profile.trim()) out.profile = form.profile.trim();
  if (form.region.trim()) out.region = form.region.trim();
  if (form.endpoint.trim()) out.endpoint = form.endpoint.trim();
  if (form.pathStyle) out.pathStyle = true;
  return out;
}

/** The form for a saved connection (fields it does not set stay blank: the config's values apply). */
export function formOf(saved: SavedConnection | undefined): ConnectionForm {
  const c = saved?.connection ?? {};
  return { profile: c.profile ?? '', region: c.region ?? '', endpoint: c.endpoint ?? '', pathStyle: !!c.pathStyle };
}
