// The shape of reports/<run-id>/results.json. Everything a run writes is
// derived from this object (junit.xml, report.html, history).

export type CheckStatus = 'passed' | 'failed' | 'skipped';
export type RequirementStatus = 'passed' | 'failed' | 'skipped' | 'not_covered';

/** One HTTP exchange as the report shows it, secrets already redacted. */
export interface ExchangeRecord {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status?: number;
  responseHeaders?: Record<string, string>;
  responseBody?: string;
  requestId?: string;
  durationMs: number;
  error?: string;
}

export interface CheckFailure {
  message: string;
  requirement?: string;
  expected?: string;
  actual?: string;
  requestId?: string;
  exchanges?: ExchangeRecord[];
}

export interface CheckResult {
  name: string;
  suite: 'conformance' | 'load' | 'chaos';
  file?: string;
  requirements: string[];
  status: CheckStatus;
  reason?: string;
  durationMs: number;
  failure?: CheckFailure;
}

export interface Observation {
  /** The requirement or topic observed ("not shown" behaviour, a reading chosen between two documented ones). */
  topic: string;
  service: 'gate' | 'pools';
  check?: string;
  value: unknown;
  note?: string;
}

export interface RequirementResult {
  id: string;
  service: 'gate' | 'pools';
  title: string;
  section: string;
  status: RequirementStatus;
  reason?: string;
  checks: { name: string; status: CheckStatus; durationMs: number; failure?: CheckFailure; reason?: string }[];
}

export interface RunResults {
  runId: string;
  tool: { name: 'rampart'; version: string };
  command: string;
  depth: 'quick' | 'full';
  startedAt: string;
  finishedAt: string;
  profile: { name: string; baseUrls: Record<string, string | undefined> };
  environment: { node: string; platform: string; host: string; specVersion: string };
  summary: { passed: number; failed: number; skipped: number; notCovered: number; checks: { passed: number; failed: number; skipped: number } };
  requirements: RequirementResult[];
  checks: CheckResult[];
  observations: Observation[];
  /** Extra artefacts per suite: k6 summaries, retry gaps, TTL samples. */
  metrics?: Record<string, unknown>;
  /** A run-level error (unreachable target, bad profile) that stopped it. */
  error?: { message: string; exitCode: number };
}
