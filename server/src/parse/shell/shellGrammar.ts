// mvdan/sh's shell parser (mvdan-sh: Go compiled to JavaScript, 1.5 MB). The CLI and the server bundle it as a file of
// its own (dist/shell-grammar.js), loaded on the first command that may do something a security rule reports, so a
// run on skills without one neither reads nor compiles it.
export { syntax } from 'mvdan-sh';
