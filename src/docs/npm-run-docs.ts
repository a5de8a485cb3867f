import { packageRoot } from '../core/package-root.js'
import { writeCompatibilityCorpus } from '../reference/compatibility-corpus.js'
import { writeDocs } from './write-docs.js'

// npm run docs: the generated docs and catalogue files (write-docs.ts), then the corpus of known bodies, which follows
// the faults and allowances (npm run corpus alone writes it too).
for (const line of await writeDocs(packageRoot)) console.log(line)
writeCompatibilityCorpus()
console.log('specs/compatibility-corpus.json: written from the reference, its faults and allowances')
