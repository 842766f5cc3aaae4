// The part of lezer only skill+ packages need: the Python grammar, its LR
// parser and the fragments an incremental parse reuses. The CLI and the
// server bundle it as a file of its own (dist/python-grammar.js), loaded on
// the first Python parse, so a run on other skills neither reads nor
// compiles it.
export { parser } from '@lezer/python';
export { TreeFragment } from '@lezer/common';
