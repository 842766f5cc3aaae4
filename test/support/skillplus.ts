import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { analyzeSkill, type SkillAnalysis } from '../../server/src/analyze';
import type { RuleCode } from '../../server/src/rules';
import type { Span } from '../../server/src/parse/text/lineIndex';
import { MemoryFileSystem } from '../../server/src/workspace/memoryFileSystem';
import { ROOT, unmark } from './fixture';

/** A small valid skill+ package: every file kind, every node kind. Tests replace one file with a marked variant. */
export const PACKAGE: Record<string, string> = {
  'SKILL.md': `---
name: trip
description: Plan a trip with the traveller, step by step. Use when someone asks for a trip plan.
metadata:
  skillplus-version: "0.1"
  skillplus-tip-budget: "900"
---
# Trip planner

Plan one trip well: ask, research, confirm, write.
`,
  'state.py': `from typing import Literal
from pydantic import BaseModel, Field


class Stop(BaseModel):
    city: str
    nights: int = 1


class State(BaseModel):
    traveller: str                      # input
    destination: str = ""
    budget: Literal["low", "mid", "high"] = "mid"
    stops: list[Stop] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    approved: bool = False
    coverage: float = 0.0
    plan: str = ""
`,
  'flow.py': `"""Trip: ask, research, check, write."""
from skillplus import Flow
from state import State


def build(flow: Flow[State]) -> None:
    with flow.stage("ask", goal="Know where and how"):
        flow.ask("where", "Where does {traveller} want to go?", into="destination")
        flow.ask("money", "Which budget?", into="budget", choices=["low", "mid", "high"])
    with flow.stage("research"):
        flow.agent("route", "List the stops for {destination}.", into="stops", tool="scripts/route.py")
        with flow.fanout("per-stop", over="stops", item="s", into="notes"):
            flow.agent("stop-notes", "Notes on {s.city} for {s.nights} nights.", rule="cite")
        with flow.loop("refine", until="coverage >= 0.8", max_rounds=3):
            flow.agent("fill", "Fill the gaps in {notes}.", into="coverage")
    with flow.stage("decide"):
        flow.confirm("ok", "Plan the trip to {destination}?", into="approved")
        with flow.branch("gate", on="approved") as b:
            with b.case(True):
                flow.agent("write", "Write the plan for {traveller}.", into="plan", rule=["cite", "no-secrets"])
            with b.otherwise():
                flow.end("stop", summary="The traveller declined.")
`,
  'references/budget-tips.md': `---
when: stage=research and budget=low
priority: 5
max_chars: 200
---
Prefer trains and hostels.
`,
  'references/guide.md': '# Guide\n\nGeneral notes.\n',
  'rules/cite.md': `---
on_fail: self-check
when: event=post_node and stage in [research, decide]
message: Every claim needs a source.
---
Cite a source for each claim.
`,
  'rules/no-secrets.py': `from skillplus import rule


@rule(id="no-secrets", on_fail="deny", when="event=pre_tool and tool in [Bash, web_search]", message="No credentials in tools.")
def no_secrets(state, ctx) -> bool | str:
    return True
`,
  'scripts/route.py': '"""Plan a route."""\n',
  'spec.md':
    '# trip\n\n## Stages\n- `ask` — where and how.\n- `research` — stops and notes.\n- `decide` — yes or no.\n\n## Rules\n- `cite` — sources.\n- `no-secrets` — no credentials.\n',
};

export const PACKAGE_DIR = path.join(ROOT, 'trip');

/** Analyses the package with some files replaced (marked with «»), returning the marked spans per file. */
export function analyzePackage(changes: Record<string, string | null> = {}): {
  analysis: SkillAnalysis;
  spans: Record<string, Span[]>;
  fs: MemoryFileSystem;
} {
  const fs = new MemoryFileSystem();
  const spans: Record<string, Span[]> = {};
  for (const [relative, content] of Object.entries({ ...PACKAGE, ...changes })) {
    if (content === null) continue;
    const marked = unmark(content);
    spans[relative] = marked.spans.map((span) => ({ ...span, file: path.join(PACKAGE_DIR, relative) }));
    fs.write(path.join(PACKAGE_DIR, relative), marked.text);
  }
  return { analysis: analyzeSkill(fs, path.join(PACKAGE_DIR, 'SKILL.md')), spans, fs };
}

/** Asserts that `code` is reported exactly at `spans` (each in its own file, in order). */
export function expectIn(analysis: SkillAnalysis, code: RuleCode, spans: Span[]) {
  const text = (file: string) => (file === analysis.file ? analysis.text : (analysis.sources.get(file) ?? ''));
  const found = analysis.diagnostics.filter((item) => item.code === code);
  assert.deepEqual(
    found.map((item) => ({
      file: path.relative(PACKAGE_DIR, item.file),
      start: item.span.start,
      end: item.span.end,
      text: text(item.file).slice(item.span.start, item.span.end),
    })),
    spans.map((span) => ({
      file: path.relative(PACKAGE_DIR, span.file!),
      start: span.start,
      end: span.end,
      text: text(span.file!).slice(span.start, span.end),
    })),
    `${code}; all diagnostics: ${JSON.stringify(analysis.diagnostics.map((item) => [item.code, path.relative(PACKAGE_DIR, item.file), item.message]))}`,
  );
  return found;
}

/** Replaces `from` by `to` once in a package file, asserting it was there. */
export function edit(relative: string, from: string, to: string): Record<string, string> {
  const before = PACKAGE[relative];
  assert.ok(before.includes(from), `${relative} holds ${JSON.stringify(from)}`);
  return { [relative]: before.replace(from, to) };
}
