/** S3 evidence (live or offline), the diagnosis made from it, and the connection form. */
import { create } from 'zustand';
import type { Diagnosis, S3Evidence } from '../../../shared/model';

export interface ConnectionForm {
  profile: string;
  region: string;
  endpoint: string;
  pathStyle: boolean;
}

export interface EvidenceState {
  outputId: number | null;
  connection: ConnectionForm;
  evidence: S3Evidence | null;
  diagnosis: Diagnosis | null;
  busy: 'live' | 'offline' | 'diagnose' | null;
  error: string | null;
  setOutputId(id: number | null): void;
  setConnection(patch: Partial<ConnectionForm>): void;
  setEvidence(evidence: S3Evidence | null): void;
  setDiagnosis(diagnosis: Diagnosis | null): void;
  setBusy(busy: EvidenceState['busy']): void;
  setError(error: string | null): void;
  reset(): void;
}

const initial = {
  outputId: null,
  connection: { profile: '', region: '', endpoint: '', pathStyle: false },
  evidence: null,
  diagnosis: null,
  busy: null,
  error: null,
};

export const useEvidence = create<EvidenceState>()((set, get) => ({
  ...initial,
  setOutputId: (outputId) => set({ outputId }),
  setConnection: (patch) => set({ connection: { ...get().connection, ...patch } }),
  setEvidence: (evidence) => set({ evidence }),
  setDiagnosis: (diagnosis) => set({ diagnosis }),
  setBusy: (busy) => set({ busy }),
  setError: (error) => set({ error, busy: null }),
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
