// Writes docs/scan.schema.json from shared/scan-schema.ts.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scanJsonSchema } from '../shared/scan-schema';

const file = join(__dirname, '..', 'docs', 'scan.schema.json');
writeFileSync(file, JSON.stringify(scanJsonSchema(), null, 2) + '\n');
console.log(`wrote ${file}`);
