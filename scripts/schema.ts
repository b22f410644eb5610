// Writes docs/<name>.schema.json for every JSON document the CLI prints (shared/json-schemas/index.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { JSON_DOCUMENTS, jsonSchemaOf } from '../shared/json-schemas';

for (const doc of Object.values(JSON_DOCUMENTS)) {
  const file = join(__dirname, '..', 'docs', doc.file);
  writeFileSync(file, JSON.stringify(jsonSchemaOf(doc), null, 2) + '\n');
  console.log(`wrote ${file}`);
}
