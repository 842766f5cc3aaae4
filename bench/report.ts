import type { AdoptionResult } from './adoption';
import type { DiffResult } from './diff';
import type { SecurityResult } from './security';
import type { RealShapedResult } from './realShaped';
import { realShapedSection, realShapedTargets } from './realShapedReport';
import type { SkillLibraryResult } from './skillLibrary';
import type { AnalysisResult } from './analysis';
import type { CatalogResult } from './catalog';
import type { PeerRun, ScaleResult } from './check';
import type { MetaskillEdits } from './metaskill';
import type { PreviewResult } from './preview';
import type { Alternated, EditScaling, Typing } from './ratios';
import type { PeerLatency, ServerResult } from './server';
import type { SkillplusResult } from './skillplus';
import { round, type Summary } from './lib/stats';

export interface Results {
  date: string;
  machine: Record<string, string>;
  analysis: AnalysisResult[];
  server: ServerResult;
  yamlls: PeerLatency;
  scale: ScaleResult[];
  adoption: AdoptionResult;
  security: SecurityResult;
  /** Absent from the results of a run before the real-shaped step. */
  realShaped?: RealShapedResult;
  skillLibrary: SkillLibraryResult;
  catalog: CatalogResult;
  peers: PeerRun[];
  /** skills-ref through its library, alternating with skillgraph check. */
  library: (Alternated & { corpus: string })[];
  startup: { plain: Alternated; aip: Alternated };
  scaling: EditScaling[];
  typing: Typing;
  metaskillEdits: MetaskillEdits[];
  preview: PreviewResult[];
  skillplus: SkillplusResult;
  diff: DiffResult;
}

const ms = (summary: Summary) => `${summary.median} / ${summary.p95}`;
const verdict = (met: boolean) => (met ? 'met' : '**missed**');

/** The results as the Markdown page the issue asks for: machine, versions, medians, p95, ratios, targets. */
export function renderResults(results: Results): string {
  const {
    analysis,
    server,
    yamlls,
    scale,
    adoption,
    security,
    skillLibrary,
    catalog,
    peers,
    library,
    startup,
    scaling,
    typing,
    metaskillEdits,
    preview,
    skillplus,
    diff,
  } = results;
  const tenThousand = scale.find((row) => row.skills === 10000)!;
  const preview300 = preview.find((row) => row.steps === 300)!;
  const corpusRows = (label: string) => peers.filter((row) => row.corpus === label);
  const plainLabels = [...new Set(peers.map((row) => row.corpus))];
  const largePlain = corpusRows(plainLabels[plainLabels.length - 1]);
  const ours = largePlain.find((row) => row.tool === 'skillgraph')!;
  const largeLibrary = library[library.length - 1];
  const scalingRow = (steps: number) => scaling.find((row) => row.steps === steps)!;
  const step = (steps: number) => scalingRow(steps).pull;
  const scalingRatio = round(step(1000).p95 / step(10).p95);
  const sessionRatios = scalingRow(1000).p95PerSession.map((p95, index) =>
    round(p95 / scalingRow(10).p95PerSession[index]),
  );
  const tenThousandFloor = round(
    tenThousand.oneThread
      ? tenThousand.oneThread.ms / tenThousand.yamlParseMs
      : tenThousand.ms / tenThousand.yamlParseMs,
  );
  const lines = [
    '# Benchmarks',
    '',
    `Written by \`npm run bench\` on ${results.date}. Times in milliseconds (median / p95 unless noted); memory is peak resident set size.`,
    '',
    '## Machine',
    '',
    ...Object.entries(results.machine).map(([key, value]) => `- ${key}: ${value}`),
    '',
    '## Targets',
    '',
    '| target | measured | verdict |',
    '|---|---|---|',
    `| analysis ≤ 1.5× the bare YAML parse | ${analysis.map((row) => `${row.steps} steps: ${row.ratio}×`).join(', ')} | ${verdict(analysis.every((row) => row.ratio <= 1.5))} |`,
    `| edit → diagnostics p95 ≤ 25 ms, 300 steps | pull ${server.editToDiagnosticsPull.p95} ms, push ${server.editToDiagnosticsPush.p95} ms | ${verdict(server.editToDiagnosticsPull.p95 <= 25 && server.editToDiagnosticsPush.p95 <= 25)} |`,
    `| completion p95 ≤ 10 ms, 300 steps | ${server.completion.p95} ms (${server.completionAfterEdit.p95} ms right after an edit) | ${verdict(server.completion.p95 <= 10)} |`,
    `| every rule on ${largeLibrary.corpus} ≤ 1.0× skills-ref's library on the same skills (alternating, ratio of medians) | ${largeLibrary.oursMedian} ms vs ${largeLibrary.theirsMedian} ms: ${largeLibrary.ratio}× | ${verdict(largeLibrary.ratio <= 1)} |`,
    `| \`check\` of one skill ≤ 1.5× \`node -e 0\` (alternating, ratio of medians) | plain ${startup.plain.oursMedian} ms (${startup.plain.ratio}×), AIP ${startup.aip.oursMedian} ms (${startup.aip.ratio}×), node -e 0 ${startup.plain.theirsMedian} ms | ${verdict(startup.plain.ratio <= 1.5 && startup.aip.ratio <= 1.5)} |`,
    `| edit → diagnostics p95 at 1,000 steps ≤ 1.5× the p95 at 10 steps (one server, round-robin; sessions pooled) | ${step(10).p95} / ${step(300).p95} / ${step(1000).p95} ms at 10 / 300 / 1,000 steps: ${scalingRatio}× (each session alone: ${sessionRatios.map((ratio) => `${ratio}×`).join(', ')}) | ${verdict(scalingRatio <= 1.5)} |`,
    `| edit → diagnostics p95 ≤ 10 ms at 300 steps (same run) | ${step(300).p95} ms | ${verdict(step(300).p95 <= 10)} |`,
    `| 10,000 skills on one thread ≤ 1.0× the bare yaml.parse floor | ${tenThousandFloor}× | ${verdict(tenThousandFloor <= 1)} |`,
    `| 10,000 skills in < 20 s using < 1 GB | ${round(tenThousand.ms / 1000)} s, ${tenThousand.maxRssMiB} MiB | ${verdict(tenThousand.ms < 20000 && tenThousand.maxRssMiB < 1024)} |`,
    `| ahead of every peer on the same work | edit → diagnostics ${server.editToDiagnosticsPull.median} ms vs yaml-language-server ${yamlls.editToDiagnostics.median} ms; plain corpus ${ours.ms} ms vs ${largePlain
      .filter((row) => row.tool !== 'skillgraph')
      .map((row) => `${row.tool} ${row.ms} ms`)
      .join(
        ', ',
      )}, skills-ref's library ${largeLibrary.theirsMedian} ms (ours ${largeLibrary.oursMedian} ms alternating) | ${verdict(server.editToDiagnosticsPull.median < yamlls.editToDiagnostics.median && largePlain.every((row) => row.tool === 'skillgraph' || ours.ms < row.ms) && largeLibrary.ratio < 1)} |`,
    `| \`fix\` on ${adoption.skills} skills ≤ 2× \`check\` of the same skills (alternating, ratio of medians) | writing: ${adoption.fix.median} ms (${adoption.fix.ratio}×); --dry-run: ${adoption.fixDryRun.median} ms (${adoption.fixDryRun.ratio}×); check ${adoption.check.median} ms | ${verdict(adoption.fix.ratio <= 2 && adoption.fixDryRun.ratio <= 2)} |`,
    `| \`check --baseline\` ≤ 1.1× \`check\` (${adoption.baseline.entries} accepted findings) | ${adoption.baseline.withBaseline.median} ms vs ${adoption.baseline.check.median} ms: ${adoption.baseline.ratio}× | ${verdict(adoption.baseline.ratio <= 1.1)} |`,
    `| security rules ≤ 1.15× \`check\` without them, ${security.skills} skills, one thread (alternating, ratio of medians) | ${security.with.median} ms with (${security.with.runs.join(', ')}), ${security.without.median} ms without (${security.without.runs.join(', ')}): ${security.ratio}× | ${verdict(security.ratio <= 1.15)} |`,
    ...(results.realShaped ? realShapedTargets(results.realShaped) : []),
    `| the library graph of ${skillLibrary.skills.toLocaleString('en')} skills (\`library --format json\`) ≤ 1.2× \`check\` of them (alternating, ratio of medians) | ${skillLibrary.library.median} ms (${skillLibrary.library.runs.join(', ')}) vs ${skillLibrary.check.median} ms (${skillLibrary.check.runs.join(', ')}): ${skillLibrary.ratio}× | ${verdict(skillLibrary.ratio <= 1.2)} |`,
    `| a keystroke in one skill's description → its diagnostics with the library's findings, p95 ≤ 50 ms at ${skillLibrary.skills.toLocaleString('en')} skills, and in the other open file | ${ms(skillLibrary.edit)} ms (median / p95); in another open skill whose description it is made alike to and back (pushed again), ${ms(skillLibrary.otherEdit)} ms; on opening it, its own findings in ${skillLibrary.open.ownMs} ms, the library's (read between messages) in ${skillLibrary.open.libraryMs} ms | ${verdict(skillLibrary.edit.p95 <= 50 && skillLibrary.otherEdit.p95 <= 50)} |`,
    `| \`library --format cypher\` for ${skillLibrary.skills.toLocaleString('en')} skills < 10 s | ${skillLibrary.cypher.ms} ms for ${skillLibrary.cypher.statements.toLocaleString('en')} statements, ${skillLibrary.cypher.rows.toLocaleString('en')} rows | ${verdict(skillLibrary.cypher.ms < 10000)} |`,
    `| \`library --format csv\` of ${skillLibrary.csv.skills.toLocaleString('en')} skills loaded into the test engine (Kùzu, WebAssembly) by its own schema and COPY statements < 60 s | ${skillLibrary.csv.ms} ms: export ${skillLibrary.csv.exportMs} ms, load ${skillLibrary.csv.loadMs} ms (${skillLibrary.csv.files} files, ${skillLibrary.csv.rows.toLocaleString('en')} rows; ${skillLibrary.csv.skillsLoaded.toLocaleString('en')} skills in the engine) | ${verdict(skillLibrary.csv.ms < 60000 && skillLibrary.csv.skillsLoaded === skillLibrary.csv.skills)} |`,
    `| the Cypher path (for cypher-shell), measured: its statements run in Kùzu at ${skillLibrary.load.skills.toLocaleString('en')} skills | the ${skillLibrary.load.skills.toLocaleString('en')}-skill workspace's ${skillLibrary.load.statements.toLocaleString('en')} statements (${skillLibrary.load.rows.toLocaleString('en')} rows) in ${skillLibrary.load.ms} ms (${skillLibrary.load.skillsLoaded} skills in the engine); the ${skillLibrary.skills.toLocaleString('en')}-skill export's rows at that rate: ${skillLibrary.load.projectedMs} ms | reported, no target |`,
    `| graph preview: 300-step graph laid out and drawn in < 1 s (median) | ${preview300.total.median} ms median, ${preview300.total.p95} ms p95 | ${verdict(preview300.total.median < 1000)} |`,
    `| skill+ (${skillplus.nodes} nodes, ${skillplus.tips + skillplus.rules} tips and rules): edit in flow.py → package diagnostics p95 ≤ 25 ms | ${skillplus.editToPackageDiagnostics.p95} ms over all edits; ${skillplus.editToPackageDiagnosticsWarm.p95} ms after each session's first 20 | ${verdict(skillplus.editToPackageDiagnostics.p95 <= 25)} (warm: ${verdict(skillplus.editToPackageDiagnosticsWarm.p95 <= 25)}) |`,
    `| skill+: completion in a predicate p95 ≤ 10 ms | ${skillplus.predicateCompletion.p95} ms (${skillplus.predicateCompletionAfterEdit.p95} ms right after an edit in flow.py) | ${verdict(skillplus.predicateCompletion.p95 <= 10)} |`,
    `| skill+: flow preview drawn < 1 s (median) | ${skillplus.preview.total.median} ms median, ${skillplus.preview.total.p95} ms p95 | ${verdict(skillplus.preview.total.median < 1000)} |`,
    `| \`diff\` of two revisions of a ${diff.steps.toLocaleString('en')}-step procedure ≤ 2× one analysis (in a process of their own, alternating, ratio of medians) | ${diff.diff.median} ms vs ${diff.analysis.median} ms: ${diff.ratio}× (${diff.changes.nodes} nodes, ${diff.changes.edges} edges, ${diff.changes.findings} findings changed; as commands, each a process, the diff takes ${diff.commands.ratio}× the check) | ${verdict(diff.ratio <= 2)} |`,
    '',
    '## Analysis of one SKILL.md against the bare `yaml` parse',
    '',
    'The floor is `yaml.parse` of the frontmatter and the procedure block of the same text; analysis is everything `skillgraph check` does for that file (parse with ranges, schema, model, graph checks, file links on disk).',
    '',
    '| steps | bytes | analysis | yaml.parse | ratio (medians) |',
    '|---|---|---|---|---|',
    ...analysis.map(
      (row) => `| ${row.steps} | ${row.bytes} | ${ms(row.analysis)} | ${ms(row.yamlParse)} | ${row.ratio}× |`,
    ),
    '',
    `## Language server, ${server.steps}-step procedure (real stdio server)`,
    '',
    `Each row pools ${server.sessions} sessions, each on a newly started server that opens the file and then takes the edits and requests in the same order, so every pool holds the same share of edits made while V8 is still compiling the server's per-edit code. Edit → diagnostics p95 of each session alone: push ${server.p95PerSession.push.join(', ')} ms; pull ${server.p95PerSession.pull.join(', ')} ms.`,
    '',
    '| measure | median / p95 | n |',
    '|---|---|---|',
    `| edit → diagnostics, pull (didChange, then textDocument/diagnostic) | ${ms(server.editToDiagnosticsPull)} | ${server.editToDiagnosticsPull.n} |`,
    `| edit → diagnostics, push (didChange → publishDiagnostics for that version) | ${ms(server.editToDiagnosticsPush)} | ${server.editToDiagnosticsPush.n} |`,
    `| the same, the next ${server.editToDiagnosticsPushWarm.n / server.sessions} edits of each session (the server's per-edit code compiled by then) | ${ms(server.editToDiagnosticsPushWarm)} | ${server.editToDiagnosticsPushWarm.n} |`,
    `| completion (depends_on) | ${ms(server.completion)} | ${server.completion.n} |`,
    `| completion right after an edit | ${ms(server.completionAfterEdit)} | ${server.completionAfterEdit.n} |`,
    `| hover (an input) | ${ms(server.hover)} | ${server.hover.n} |`,
    `| definition (an input) | ${ms(server.definition)} | ${server.definition.n} |`,
    `| **yaml-language-server**: edit → diagnostics, same procedure and schema (one session) | ${ms(yamlls.editToDiagnostics)} | ${yamlls.editToDiagnostics.n} |`,
    '',
    `yaml-language-server was run as: ${yamlls.how}. With a key the schema forbids added, it reported ${yamlls.diagnostics} diagnostic(s), so the schema was applied.`,
    '',
    '## `skillgraph check` at scale',
    '',
    'Generated workspaces: three skills in four plain, one in four an AIP 0.3 procedure of 5 to 30 steps with scripts on disk.',
    '',
    `Each row is the median of ${tenThousand.runs.length} runs (all runs listed); peak memory is the largest of them. \`check\` uses worker threads from 2,000 skills on; the one-thread column is the same run with \`--jobs 1\`. The floor is bare \`yaml.parse\` of every SKILL.md's frontmatter and procedure block, in a process of its own (\`bench/lib/floor.cjs\`: no file checks, no model); each run of it follows a one-thread run of \`check\`, alternating, and the ratio is of the medians.`,
    '',
    '| skills | threads | wall time (ms) | runs | per skill (ms) | peak memory (MiB) | one thread (ms) | one thread, peak (MiB) | yaml.parse floor (ms): median (runs) | diagnostics |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...scale.map(
      (row) =>
        `| ${row.skills} | ${row.threads} | ${row.ms} | ${row.runs.join(', ')} | ${row.msPerSkill} | ${row.maxRssMiB} | ${row.oneThread ? `${row.oneThread.ms} (${row.oneThread.runs.join(', ')})` : '–'} | ${row.oneThread?.maxRssMiB ?? '–'} | ${row.yamlParseMs} (${row.yamlParseRuns.join(', ')}) | ${row.diagnostics} |`,
    ),
    '',
    `Growth from 1,000 to 10,000 skills: time ×${round(tenThousand.ms / scale.find((row) => row.skills === 1000)!.ms)}, memory ×${round(tenThousand.maxRssMiB / scale.find((row) => row.skills === 1000)!.maxRssMiB)}.`,
    '',
    `## MetaSkill catalog on ${catalog.skills.toLocaleString('en')} skills`,
    '',
    `A generated MetaSkill of ${catalog.steps} steps, each composing a skill of the ${catalog.skills.toLocaleString('en')}-skill workspace above (given as a catalog root), measured in one process as the language server runs it.`,
    '',
    '| measure | median / p95 | n |',
    '|---|---|---|',
    `| catalog built from nothing (every SKILL.md listed and read) | ${ms(catalog.build)} | ${catalog.build.n} |`,
    `| one composed skill changed on disk → MetaSkill re-checked (catalog invalidated for that file) | ${ms(catalog.recheck)} | ${catalog.recheck.n} |`,
    `| MetaSkill analysed, catalog known | ${ms(catalog.analysis)} | ${catalog.analysis.n} |`,
    '',
    '## `fix` and `check --baseline`',
    '',
    `The ${adoption.skills}-skill generated workspace with the mistakes a library has (a third with a description YAML cannot read, a fifth with CRLF line endings, a seventh linking with a backslash, half naming a missing file): ${adoption.findings} findings, ${adoption.fixes} safe fixes. Each round runs \`check\`, \`fix --dry-run\`, \`fix\` on a fresh copy, \`check\` and \`check --baseline\` (a baseline of every finding, ${adoption.baseline.entries} entries) in turn; wall times of whole runs.`,
    '',
    '| run | median | runs |',
    '|---|---|---|',
    `| check | ${adoption.check.median} | ${adoption.check.runs.join(', ')} |`,
    `| fix --dry-run (every fix made and checked, a diff printed) | ${adoption.fixDryRun.median} | ${adoption.fixDryRun.runs.join(', ')} |`,
    `| fix (written) | ${adoption.fix.median} | ${adoption.fix.runs.join(', ')} |`,
    `| check, next to the baseline run | ${adoption.baseline.check.median} | ${adoption.baseline.check.runs.join(', ')} |`,
    `| check --baseline | ${adoption.baseline.withBaseline.median} | ${adoption.baseline.withBaseline.runs.join(', ')} |`,
    '',
    ...(results.realShaped ? realShapedSection(results.realShaped) : []),
    '## Plain-skill corpora, side by side',
    '',
    "`skills-ref` below is the npm package `skills-ref@0.1.5`, a port to JavaScript. The official reference validator is the Python `skills-ref` of the Agent Skills project, which this machine cannot install (no Python package index); Skillgraph's `strict` mode gives its verdict, and the corpus tests hold Skillgraph to it.",
    '',
    '| corpus | tool | wall time (ms) | peak memory (MiB) | findings |',
    '|---|---|---|---|---|',
    ...peers.map((row) => `| ${row.corpus} | ${row.tool} | ${row.ms} | ${row.maxRssMiB} | ${row.findings} |`),
    '',
    'How each tool was run:',
    '',
    ...[...new Map(peers.map((row) => [row.tool, row.how])).entries()].map(([tool, how]) => `- ${tool}: ${how}`),
    '- agnix could not be measured: its npm package downloads its binary at install time, which this machine cannot do.',
    '',
    '## Side by side, alternating (ratios of medians)',
    '',
    'Each pair runs in turn (ours, theirs, ours, …) in the same bench run, so a busier moment of the machine weighs on both sides; the ratio is our median over theirs.',
    '',
    '| what | ours | theirs | our runs (ms) | their runs (ms) | ratio |',
    '|---|---|---|---|---|---|',
    ...[
      ...library.map((row) => ({ what: `every rule vs skills-ref's library (the npm port), ${row.corpus}`, row })),
      { what: 'check of one plain skill vs starting Node', row: startup.plain },
      { what: 'check of one AIP skill vs starting Node', row: startup.aip },
    ].map(
      ({ what, row }) =>
        `| ${what} | \`${row.ours}\` ${row.oursMedian} ms | \`${row.theirs}\` ${row.theirsMedian} ms | ${row.oursMs.join(', ')} | ${row.theirsMs.join(', ')} | ${row.ratio}× |`,
    ),
    '',
    `skills-ref's library: bench/lib/skillsRefLibrary.mjs imports it and awaits \`validate(dir)\` for every skill folder, in one process, as a user would script it.`,
    '',
    '## Edit latency against procedure size (one server per session)',
    '',
    `One server holds three generated procedures open; a character is typed into (then removed from) the middle step's description of each in turn, each edit timed from didChange to its pulled diagnostics. The bench sends only the change, keeping no copy of the text (bench/lib/keystroke.ts), so its own garbage collections stay out of the time measured. ${scalingRow(10).p95PerSession.length} such servers run one after another, from the open, and their samples are pooled (each session's own p95 is listed).`,
    '',
    "The last two columns time the same keystrokes applied, in the bench's process with no analysis, by the server's document and by vscode-languageserver-textdocument, the document library the server used before: the cost of taking the change before any analysis starts. The library makes each edited text one new flat string, and V8 keeps a string of over 128 KB as a large object mapped afresh, so its cost grows with the text. The server keeps the text in pieces of 16 K characters and the analysis of an edit reads them where they are; the whole text is made one string only when a feature asks for it.",
    '',
    "| steps | median / p95 | n | p95 of each session | server's document update alone, median / p95 | the library's update alone, median / p95 |",
    '|---|---|---|---|---|---|',
    ...scaling.map(
      (row) =>
        `| ${row.steps} | ${ms(row.pull)} | ${row.pull.n} | ${row.p95PerSession.join(', ')} | ${ms(row.documentUpdate)} | ${ms(row.libraryUpdate)} |`,
    ),
    '',
    '## Typing into a 1,000-step procedure (one server)',
    '',
    `The same keystroke, into the ${typing.steps}-step procedure alone, one every ${typing.everyMs} ms for ${typing.forMs / 1000} s, as a person types: the server idles between keystrokes, and the typing outlasts the two seconds its view of the skill folder is trusted for before it is checked against the disk. No target is set. Memory is the server's resident set, read from /proc after the open and after the typing.`,
    '',
    '| median / p95 | p99 | max | n | server memory after open → after typing |',
    '|---|---|---|---|---|',
    `| ${ms(typing.pull)} | ${typing.pull.p99} | ${typing.pull.max} | ${typing.pull.n} | ${typing.rssOpenMiB !== undefined && typing.rssEndMiB !== undefined ? `${typing.rssOpenMiB} → ${typing.rssEndMiB} MiB` : 'not read (no /proc)'} |`,
    '',
    "## MetaSkill: edit latency on the corpus's largest compositions (one server)",
    '',
    "One server holds the three largest MetaSkills of the shared corpus open; a character is typed into (then removed from) a value in the middle of each in turn (between two words of its frontmatter's steps), each edit timed from didChange to its pulled diagnostics. No target is set for MetaSkills; the frontmatter is parsed a step per chunk (see docs/performance.md, What an edit costs).",
    '',
    '| skill | bytes | steps | median / p95 | n |',
    '|---|---|---|---|---|',
    ...metaskillEdits.map((row) => `| ${row.skill} | ${row.bytes} | ${row.steps} | ${ms(row.pull)} | ${row.pull.n} |`),
    '',
    '## Graph preview: request to rendered graph',
    '',
    'The `skillgraph/graph` request to the real server, then the preview page in headless Chromium laying the graph out with ELK and drawing it.',
    '',
    '| steps | request | layout + render | total |',
    '|---|---|---|---|',
    ...preview.map((row) => `| ${row.steps} | ${ms(row.request)} | ${ms(row.render)} | ${ms(row.total)} |`),
    '',
    `## skill+ package: ${skillplus.nodes} flow nodes, ${skillplus.tips} tips, ${skillplus.rules} rules`,
    '',
    `A generated package (bench/lib/generate.ts: ten stages, asks, confirms, loops and fan-outs, a 36-field State), through the real stdio server with flow.py, state.py, a tip and SKILL.md open and pull diagnostics, as VS Code asks; ${skillplus.sessions} sessions, each on a new server, pooled. An edit is one character typed into (then removed from) a node's instruction in the middle of flow.py; its latency runs from didChange to the diagnostics of flow.py and of the tip back.`,
    '',
    '| measure | median / p95 | n |',
    '|---|---|---|',
    `| edit in flow.py → diagnostics of flow.py and a tip | ${ms(skillplus.editToPackageDiagnostics)} | ${skillplus.editToPackageDiagnostics.n} |`,
    `| the same, after each session's first 20 edits | ${ms(skillplus.editToPackageDiagnosticsWarm)} | ${skillplus.editToPackageDiagnosticsWarm.n} |`,
    `| completion in a tip's predicate (after \`level=\`) | ${ms(skillplus.predicateCompletion)} | ${skillplus.predicateCompletion.n} |`,
    `| the same right after an edit in flow.py (the package read again first) | ${ms(skillplus.predicateCompletionAfterEdit)} | ${skillplus.predicateCompletionAfterEdit.n} |`,
    `| flow preview: \`skillgraph/graph\` request | ${ms(skillplus.preview.request)} | ${skillplus.preview.request.n} |`,
    `| flow preview: layout (stages as ELK clusters) and drawing in Chromium | ${ms(skillplus.preview.render)} | ${skillplus.preview.render.n} |`,
    `| flow preview: total | ${ms(skillplus.preview.total)} | ${skillplus.preview.total.n} |`,
    '',
    `Edit → diagnostics p95 per session: ${skillplus.p95PerSession.join(', ')} ms.`,
    '',
    `## \`diff\`: two revisions of a ${diff.steps.toLocaleString('en')}-step procedure`,
    '',
    `The second revision renames ten steps (what depends on them then names a step that is gone), retypes twenty outputs and drops a script (bench/diff.ts). A diff analyses the first revision, then the second as an edit of it (what the language server keeps between keystrokes is reused: the YAML, the steps and the per-step findings of what did not change), makes each one's graph and compares them; the measure is \`diffRevisions\`, what \`skillgraph diff\` runs for a changed skill, in a process of its own (as the command runs it, apart from what the bench ran before), ${diff.analysis.n} rounds alternating with one analysis of the first revision.`,
    '',
    '| measure | median / p95 |',
    '|---|---|',
    `| one analysis | ${ms(diff.analysis)} |`,
    `| the diff (the first revision analysed, the second as an edit of it, two graphs, the comparison) | ${ms(diff.diff)} |`,
    `| the preview's changes on an edit (the revision's graph kept: one analysis, its graph, the comparison) | ${ms(diff.onEdit)} (${diff.onEditRatio}× one analysis) |`,
    '',
    `As a user runs them, each a process (start-up, a cold JIT, reading and printing included), ${diff.commands.check.n} rounds alternating after one not counted:`,
    '',
    '| command | median / p95 |',
    '|---|---|',
    `| \`skillgraph check\` of the first revision | ${ms(diff.commands.check)} |`,
    `| \`skillgraph diff before after --format json\` | ${ms(diff.commands.diff)} (${diff.commands.ratio}× the check) |`,
    '',
    `A library: a git repository of ${diff.library.skills} skills (the examples, every format, copied over and over), one step of one skill renamed in the working tree; ${diff.library.check.n} rounds alternating:`,
    '',
    '| command | median / p95 |',
    '|---|---|',
    `| \`skillgraph check .\` | ${ms(diff.library.check)} |`,
    `| \`skillgraph diff --format json\` (against HEAD, read from git) | ${ms(diff.library.diff)} (${diff.library.ratio}× the check) |`,
    '',
  ];
  return lines.join('\n');
}
