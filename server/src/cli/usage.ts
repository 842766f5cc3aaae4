import { PROFILE_IDS } from '../platforms/profiles';
import { COMPILE_TARGETS, TARGET_VERSIONS } from '../compile/targets';

/** What `skillgraph --help` prints: every command, its options and its exit status. */
export const USAGE = `Usage:
  skillgraph check [paths...] [--format text|json|sarif|github] [--profile NAME] [--strict] [--preview]
                   [--catalog DIR]... [--max-warnings N] [--jobs N] [--baseline FILE] [--update-baseline] [--only security]
                   [--shard K/N] [--hash] [--model]
  skillgraph merge-reports REPORT.json... [--format text|json|sarif|github] [--max-warnings N]
  skillgraph fix [paths...] [--unsafe] [--dry-run] [--code CODE]... [--profile NAME] [--strict] [--preview]
                 [--catalog DIR]...
  skillgraph init [dir] [--force]
  skillgraph library [paths...] [--format text|json|sarif|github|cypher|graphml] [--profile NAME] [--user-folders]
                     [--max-warnings N]
  skillgraph library [paths...] --format csv --out DIR [--force] [--user-folders]
  skillgraph query [NAME [paths...]] [--format text|json] [--user-folders]
  skillgraph graph <skill-dir|SKILL.md> [--format json|mermaid|dot] [--profile NAME] [--catalog DIR]...
  skillgraph diff [<rev-or-dir> [<rev-or-dir>]] [-- paths...] [--format text|json|markdown] [--profile NAME]
  skillgraph hash [paths...] [--format text|json]
  skillgraph context <skill+ dir|SKILL.md> --at NODE [--state FILE.json] [--event EVENT] [--round N] [--tool NAME]
                     [--format text|json]
  skillgraph compile <skill-dir|SKILL.md> --to ${COMPILE_TARGETS.map((target) => target.id).join('|')}
                     [--out DIR] [--force] [--aip-version ${TARGET_VERSIONS.join('|')}] [--profile NAME] [--catalog DIR]...
  skillgraph --help | --version

check   finds every SKILL.md under the paths (default: .) and reports problems, with the settings of the
        .skillgraph.yaml nearest each skill (flags win over it).
        Exit status: 0 clean, 1 errors (or more warnings than --max-warnings), 2 usage or I/O failure.
        --strict        the reference validator's verdict: what it rejects is an error.
        --preview       runs the preview rules too: new rules that may still change (docs/rules/), off by default.
        --jobs N        checks on N threads (default: one per core, up to 4, for 2,000 skills or more).
        --baseline FILE reports only findings not in FILE (default: the configuration's \`baseline\`).
        --update-baseline  writes every finding of the checked skills into the baseline and exits 0.
        --only security  reports the security rules alone (hidden text, hostile instructions, risky commands,
                        secrets, broad grants): an audit of skills from elsewhere; nothing in them is run.
        --shard K/N     checks the K-th of N equal slices of the skills found, in the order found: a CI matrix
                        of N runners, each with --format json, covers them once; merge-reports joins the reports.
        --hash          adds each skill's content hash (as \`skillgraph hash\` prints it) to the JSON report.
        --model         asks the configuration's language model (\`model:\`, an OpenAI-compatible endpoint) for a
                        second opinion on suspicious paragraphs: model_opinion findings. Sends those paragraphs.
merge-reports joins the JSON reports of check --shard 1/N … N/N into the report one run would have written, in any
        format; the exit status is check's. Every shard must be there, once.
fix     applies the fixes the editor offers as quick fixes: safe ones (quoting a value YAML misreads, a path's
        case or slashes, line endings, a list in brackets) unless --unsafe (a suggested name, a stub script, …).
        Each skill is checked again after its fixes; a fix that would add an error is left out.
        Files are written all or nothing. --dry-run prints the changes as a unified diff and writes nothing.
        --code CODE fixes findings of that code only (repeatable).
        Exit status: 0 nothing left with errors (with --dry-run: nothing to change), 1 errors remain (with
        --dry-run: there are changes), 2 usage or I/O failure.
init    writes a commented .skillgraph.yaml into dir (default: .) for the skills under it, its profile
        inferred from where they live; never over an existing configuration unless --force.
library reads the skills under the paths (default: .) as one library: which skills invoke or link to which,
        names that collide (and which one a client loads), descriptions too alike to tell apart, mentions of a
        skill a letter off an existing one, rings of skills invoking each other, and the skill list's size
        against what a client lists (Codex: the skills in .agents/skills, or written for it: --profile codex
        or a configured profile). --format json writes the library graph (skills, their steps, scripts by
        content, the edges between them) and its findings; cypher writes statements that load it into Neo4j
        (cypher-shell < library.cypher), as many times as it is run; graphml writes it for graph editors;
        sarif and github write the findings as check does (code scanning, pull request annotations);
        csv writes a file per node label and relationship type into --out DIR for neo4j-admin database import
        (never over an existing file unless --force), and prints the import command. --user-folders adds
        the clients' user-level skill folders that exist (~/.claude/skills, ~/.agents/skills): which of two
        same-named skills a client loads depends on them.
        Exit status: 0 clean (warnings allowed), 1 errors or more warnings than --max-warnings, 2 usage or
        I/O failure.
query   answers a governance question over the library under the paths (default: .): without NAME, lists
        the questions and their Cypher (the same answer a graph database loaded with the export gives).
        Exit status: 0 no rows, 1 rows (something to look at), 2 usage or I/O failure.
graph   prints one skill's graph: steps, typed ports, control and data edges.
diff    compares the skills under the paths (default: .) in two revisions, each a git revision (read from git,
        nothing checked out) or a folder: by default HEAD and the working tree, with one argument it and the
        working tree. For each skill changed: the steps, ports, types, edges, scripts, guards, tips and rules
        added, removed, renamed (the same content under a new name) or changed, the inputs left without their
        producer, the findings introduced and fixed. --format markdown writes a pull-request comment with a
        table and a Mermaid drawing of the changed part. Paths come after --.
        Exit status: 0 no errors introduced, 1 the change introduces errors, 2 usage or I/O failure.
hash    prints each skill's content hash (sha256 over its folder's files), the same wherever the files are read
        from, for a runtime or registry to pin a revision by.
context prints what a skill+ runtime puts in front of the model at one node for one State
        (the defaults of state.py, overridden by --state): brief, map, tips, rules, with sizes.
compile turns one skill into another form: ir (its graph as JSON, any format), aip (a prose skill as an
        AIP 0.5a1 package, --aip-version 0.3 for the older format; an AIP 0.3 skill migrated to 0.5), agent-skill (a structured skill as a
        plain Agent Skill), metaskill / metaskill-sop (a MetaSkill's other form: composition.steps, or
        meta_sop prose), mermaid, dot. The former names plain, meta and meta_sop are still accepted.
        A one-file result goes to stdout without --out;
        --out DIR writes the package into DIR (the skill is named after DIR), never over an existing file
        unless --force, and all or nothing. The result is checked first: with errors nothing is written.
        Exit status: 0 written, 1 the result (or the skill) has errors, 2 usage or I/O failure.
--catalog DIR   a folder of skill folders MetaSkills may compose, besides the skills next to
        each MetaSkill (repeatable).
Profiles: ${PROFILE_IDS.join(', ')} (default: the configuration's, else the client whose skills folder holds
        the skill, else agentskills).`;
