import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Report } from './report.js'

export async function writeJsonReport(report: Report, dir: string): Promise<string> {
  await mkdir(dir, { recursive: true })
  const path = join(dir, 'report.json')
  await writeFile(path, `${JSON.stringify(report, null, 2)}\n`)
  return path
}
