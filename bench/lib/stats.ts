import { execSync } from 'node:child_process';
import { cpus, totalmem } from 'node:os';

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index];
}

export interface Summary {
  n: number;
  median: number;
  p95: number;
}

export function summarize(values: number[]): Summary {
  return { n: values.length, median: round(percentile(values, 50)), p95: round(percentile(values, 95)) };
}

export function round(value: number, digits = 2): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** Milliseconds since `start` (from performance.now()). */
export function since(start: number): number {
  return performance.now() - start;
}

export function machine(): Record<string, string> {
  const cpu = cpus()[0]?.model ?? 'unknown';
  const peers = (name: string) => {
    try {
      return execSync(`node -p "require('./bench/.peers/node_modules/${name}/package.json').version"`, {
        encoding: 'utf8',
      }).trim();
    } catch {
      return 'not installed';
    }
  };
  return {
    cpu,
    cores: String(cpus().length),
    memory: `${Math.round(totalmem() / 2 ** 30)} GiB`,
    node: process.version,
    'yaml-language-server': peers('yaml-language-server'),
    'claude-code-lint': peers('claude-code-lint'),
    'skills-ref': peers('skills-ref'),
  };
}
