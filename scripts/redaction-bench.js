// The cost of redaction on the body shapes a run meets, for comparing two builds (not a test: it measures time).
//   npm run docs (or any build into dist/), then: node scripts/redaction-bench.js [ROOT ...]
// ROOT is a checkout whose dist/ holds a build (default: this one); with two roots, the second's times are also given
// as a ratio of the first's, e.g. node scripts/redaction-bench.js /tmp/main-checkout . Each shape is redacted with the
// secrets of a run against the reference (two keys, two receipts, their near misses), once without a secret in the
// body and once with a receipt in it (where the pieces and stretches of a found secret are searched for); the median of
// several rounds is given, after one round to warm up.
import { Buffer } from 'node:buffer'
import { createHash } from 'node:crypto'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const MiB = 1024 * 1024
const roots = process.argv.length > 2 ? process.argv.slice(2) : ['.']

/** Deterministic bytes, so that every build redacts the same bodies. */
function bytes(label, length) {
  const out = Buffer.alloc(length)
  for (let block = 0, at = 0; at < length; block++, at += 32)
    createHash('sha256').update(`${label}/${block}`).digest().copy(out, at)
  return out
}

const hex = (label, digits) =>
  bytes(label, Math.ceil(digits / 2))
    .toString('hex')
    .slice(0, digits)
const receipt = `rcpt_${hex('receipt', 40)}`
const settings = {
  apiKey: `ipts_full_${hex('key/full', 32)}`,
  restrictedApiKey: `ipts_restricted_${hex('key/restricted', 32)}`,
  intent: { receipt },
  secondIntent: { receipt: `rcpt_${hex('receipt/b', 40)}` },
}

/** JSON of markets-like records up to about `size` characters. */
function json(size) {
  const records = []
  let length = 0
  for (let i = 0; length < size; i++) {
    const record = {
      id: `market-${i}`,
      symbol: `SYM${i}/USD`,
      status: i % 7 === 0 ? 'paused' : 'open',
      tickSize: '0.01',
      updatedAt: `2026-11-${String((i % 28) + 1).padStart(2, '0')}T10:00:00Z`,
      description: `A market of the reference, number ${i}, with some words in it.`,
    }
    length += JSON.stringify(record).length + 1
    records.push(record)
  }
  return JSON.stringify({ data: records })
}

/** A list of 0x-hashes up to about `size` characters. */
function hexHeavy(size) {
  const count = Math.ceil(size / 69)
  const all = bytes('hashes', count * 32).toString('hex')
  return JSON.stringify({ data: Array.from({ length: count }, (_, i) => `0x${all.slice(i * 64, i * 64 + 64)}`) })
}

/** Base64 blobs of 3 KiB each up to about `size` characters. */
function base64Heavy(size) {
  const count = Math.ceil(size / 4100)
  return JSON.stringify({
    data: Array.from({ length: count }, (_, i) => ({ blob: bytes(`blob/${i}`, 3072).toString('base64') })),
  })
}

const shapes = [
  { name: '10 KB JSON', body: json(10 * 1024), rounds: 30 },
  { name: '4 MiB JSON', body: json(4 * MiB), rounds: 3 },
  { name: 'hex-heavy 4 MiB', body: hexHeavy(4 * MiB), rounds: 3 },
  { name: 'base64-heavy 4 MiB', body: base64Heavy(4 * MiB), rounds: 3 },
]

/** The body with the receipt as the value of its first member. */
const withReceipt = (body) => body.replace(/^\{"data"/, `{"receipt":"${receipt}","data"`)

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]
}

async function redactorOf(root) {
  const { redact, secretsOf } = await import(pathToFileURL(resolve(root, 'dist/src/http/secrets.js')).href)
  const secrets = secretsOf(settings)
  return (text) => redact(text, secrets)
}

const redactors = await Promise.all(roots.map(redactorOf))
console.log(`| shape | ${roots.join(' | ')}${roots.length > 1 ? ' | ratio' : ''} |`)
console.log(`| --- | ${roots.map(() => '---').join(' | ')}${roots.length > 1 ? ' | ---' : ''} |`)
for (const { name, body, rounds } of shapes) {
  for (const [variant, text] of [
    ['clean', body],
    ['a receipt in it', withReceipt(body)],
  ]) {
    // The roots take turns, round by round, so that the load of a shared machine falls on each alike.
    const ms = redactors.map(() => [])
    for (const redact of redactors) redact(text)
    for (let round = 0; round < rounds; round++) {
      for (const [i, redact] of redactors.entries()) {
        const start = process.hrtime.bigint()
        redact(text)
        ms[i].push(Number(process.hrtime.bigint() - start) / 1e6)
      }
    }
    const medians = ms.map(median)
    const ratio = roots.length > 1 ? ` | ${(medians.at(-1) / medians[0]).toFixed(2)}` : ''
    console.log(`| ${name}, ${variant} | ${medians.map((m) => `${m.toFixed(1)} ms`).join(' | ')}${ratio} |`)
  }
}
