/**
 * What a plan's review shows besides its steps, filled in by the session for every door:
 * - `bookkeeping`: what Store Doctor itself writes when the plan is applied — its undo journal and
 *   the backups of the files the plan overwrites or deletes (`<root>/.store-doctor/`, a dot-folder
 *   Fluent Bit never looks at), and the replay journal for a replay;
 * - `processCheck`: whether a process uses the plan's root (open files, mappings, working
 *   directory), as the write guard looks for them, said in one sentence.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { PlanStep, ProcessCheck, RepairPlan } from '../../../shared/model';
import { blockingRefusals } from '../../../shared/refusals';
import { ACTIONS, findProcessesUsing, REPLAY_JOURNAL, TOOL_DIR } from '../repair';

function blocked(plan: RepairPlan): boolean {
  return plan.steps.length === 0 || blockingRefusals(plan.refusals, true).length > 0; // blocked even when forced
}

export function bookkeepingSteps(plan: RepairPlan): PlanStep[] {
  if (blocked(plan)) return [];
  if (plan.action === 'undo') {
    const journal = plan.details?.kind === 'undo' ? plan.details.journal : null;
    return journal ? [{ kind: 'append-journal', target: journal, description: 'record in the undo journal that the action was undone (fsynced)' }] : [];
  }
  if (!ACTIONS[plan.action].journaled || !plan.rootPath) return [];
  const tool = path.join(plan.rootPath, TOOL_DIR);
  const steps: PlanStep[] = [];
  if (!fs.existsSync(tool))
    steps.push({
      kind: 'mkdir',
      target: tool,
      description: "create Store Doctor's own folder (mode 0700, owned like the root; Fluent Bit ignores dot-folders)",
    });
  steps.push({
    kind: 'append-journal',
    target: path.join(tool, 'journal.jsonl'),
    description: 'record the action before changing anything, then its outcome (fsynced): what undo reads',
  });
  const backedUp = plan.steps.filter((s) => (s.kind === 'write-file' || s.kind === 'delete-file') && path.isAbsolute(s.target) && fs.existsSync(s.target));
  if (backedUp.length) {
    const names = backedUp.map((s) => path.relative(plan.rootPath!, s.target) || s.target);
    steps.push({
      kind: 'backup',
      target: path.join(tool, 'backups', '<action id>') + path.sep,
      description: `copy ${names.slice(0, 5).join(', ')}${names.length > 5 ? ` and ${names.length - 5} more` : ''} here before it changes, so undo can put back the exact bytes`,
    });
  }
  if (plan.action === 'replay')
    steps.push({
      kind: 'append-journal',
      target: path.join(tool, REPLAY_JOURNAL),
      description: 'record each upload as it is confirmed, so an interrupted replay resumes without uploading a chunk twice',
    });
  return steps;
}

/** Local writes only (recover-versions writes to the bucket); nothing for a refused plan. */
export async function processCheckOf(plan: RepairPlan): Promise<ProcessCheck | undefined> {
  if (blocked(plan) || !ACTIONS[plan.action].writes.includes('store') || !plan.rootPath || !fs.existsSync(plan.rootPath)) return undefined;
  const use = await findProcessesUsing(plan.rootPath);
  const processes = use.processes.map((p) => ({ pid: p.pid, command: p.command }));
  let text: string;
  if (!use.supported) text = 'Not checked: this system has no /proc to look for processes using the root. Make sure Fluent Bit is stopped.';
  else if (processes.length)
    text = `${processes.length === 1 ? 'A process uses' : `${processes.length} processes use`} this root: ${processes.map((p) => `${p.pid} (${p.command})`).join(', ')}.`;
  else
    text = `No process uses this root: none of the ${use.inspected} processes in /proc has a file or folder of it open or mapped, or its working directory there (checked by device and inode).`;
  if (use.supported && use.uninspectable)
    text += ` ${use.uninspectable} process${use.uninspectable === 1 ? '' : 'es'} could not be inspected (permission denied): run as root to be sure.`;
  return { checked: use.supported, processes, uninspectable: use.uninspectable, text };
}
