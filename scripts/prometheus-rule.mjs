#!/usr/bin/env node
// Writes deploy/kubernetes/prometheusrule.yaml from deploy/prometheus/rules.yml (the one source of the
// alert rules): the same groups in a prometheus-operator PrometheusRule. `npm run rules` runs it;
// test/deploy/prometheus-rules.test.ts fails when the two differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { parse, stringify } from 'yaml';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const rules = parse(readFileSync(join(root, 'deploy/prometheus/rules.yml'), 'utf8'));
const doc = {
  apiVersion: 'monitoring.coreos.com/v1',
  kind: 'PrometheusRule',
  metadata: { name: 'store-doctor', namespace: 'logging', labels: { 'app.kubernetes.io/name': 'store-doctor' } },
  spec: { groups: rules.groups },
};
const head =
  '# GENERATED from deploy/prometheus/rules.yml by `npm run rules` — edit that file, not this one.\n' +
  "# The alert rules for the guard's metrics as a prometheus-operator PrometheusRule.\n";
const file = join(root, 'deploy/kubernetes/prometheusrule.yaml');
// formatted as `npm run lint` wants it, so the generated file passes prettier --check
writeFileSync(file, await format(head + stringify(doc, { lineWidth: 0 }), { ...(await resolveConfig(file)), filepath: file }));
console.log(`wrote ${file}`);
